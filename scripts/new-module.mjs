// `npm run new:module -- <name>`: a working domain module in src/<name>/ (docs/adding-a-module.md
// shows what it writes, file by file): its slice (Nest module, scope <name>:read, an error code
// with its OpenAPI example, a documented setting, a migration, an OpenAPI tag and operationId),
// the Nest module, a search route GET /v1/<name> with its controller, service, repository,
// entity and DTOs, and test/<name>.e2e-spec.ts over real HTTP and PostgreSQL. Outside the folder
// and the test it adds one line to src/slices.ts, nothing else.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The module-name rule of src/common/naming.ts: lower-case words joined by hyphens. */
const MODULE_NAME = /^[a-z]+(-[a-z]+)*$/;

/** Every name the generated files use, from the module's (`obras-sociales`). */
export function namesOf(name) {
  if (!MODULE_NAME.test(name))
    throw new Error(
      `module name ${JSON.stringify(name)} does not match ${MODULE_NAME.source} (lower-case words joined by hyphens: obras-sociales)`,
    );
  const words = name.split('-');
  const pascal = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return {
    name,
    pascal,
    camel: pascal[0].toLowerCase() + pascal.slice(1),
    upper: words.join('_').toUpperCase(),
    table: words.join('_'),
    scope: `${name}:read`,
    title: words.join(' ').replace(/^./, (c) => c.toUpperCase()),
  };
}

/** Every migration epoch of the repository (src/<module>/migrations, migrations/). */
function migrationEpochs(root) {
  const epochs = [];
  const scan = (dir) => {
    if (!existsSync(dir)) return;
    for (const f of readdirSync(dir)) {
      const m = /^(\d{13})-/.exec(f);
      if (m) epochs.push(Number(m[1]));
    }
  };
  scan(join(root, 'migrations'));
  for (const entry of readdirSync(join(root, 'src'), { withFileTypes: true }))
    if (entry.isDirectory()) scan(join(root, 'src', entry.name, 'migrations'));
  return epochs;
}

/**
 * The new migration's epoch: now, or later than every existing migration if one is dated ahead
 * (TypeORM runs them by this number, so a new table comes after every table it may reference).
 */
export const nextEpoch = (root, now = Date.now()) =>
  Math.max(now, ...migrationEpochs(root).map((e) => e + 1000));

/** The generated files, path → text. */
export function moduleFiles(n, epoch) {
  const { name, pascal, camel, upper, table, scope, title } = n;
  const migration = `${pascal}${epoch}`;
  const code = `${upper}_VENTANA_EXCEDIDA`;
  const setting = `${upper}_VENTANA_MAXIMA`;
  return {
    [`src/${name}/${name}.slice.ts`]: `import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/access.js';
import { defineSlice } from '../common/module-slice.js';
import { ${migration} } from './migrations/${epoch}-${pascal}.js';
import { ${pascal}Module } from './${name}.module.js';
import { ${camel}Settings } from './${name}.settings.js';

export const ${upper}_SCOPES = defineScopes({
  '${scope}': 'search ${name}',
});

export const ${upper}_ERRORS = defineErrorCodes({
  ${code}: 422,
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof ${upper}_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof ${upper}_ERRORS, number> {}
}

/** ${name}: what this module does, in a line. */
export const ${camel}Slice = defineSlice({
  name: '${name}',
  module: ${pascal}Module,
  scopes: ${upper}_SCOPES,
  errors: ${upper}_ERRORS,
  errorExamples: [
    {
      code: '${code}',
      message: 'A search reads at most 1000 results: page × per_page must not exceed it',
      details: [{ field: 'page', issue: 'page 51 of 20 reads past result 1000' }],
    },
  ],
  settings: [${camel}Settings],
  migrations: [${migration}],
  tags: { '${name}': 'Search of ${name}.' },
  operationIds: { 'GET /v1/${name}': 'buscar${pascal}' },
});
`,

    [`src/${name}/${name}.settings.ts`]: `import { Documented } from '../config/setting-docs.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class ${pascal}Variables {
  @Documented('${name}: a search reads at most this many results (page × per_page); past it, 422', {
    default: 1000,
  })
  @IntSetting(1, 1000000)
  ${setting}?: number;
}

export const ${camel}Settings = defineSettings(
  '${name}',
  ${pascal}Variables,
  (v) => ({ ventanaMaxima: v.${setting} ?? 1000 }),
  { title: '${title}' },
);

export type ${pascal}Settings = SettingsOf<typeof ${camel}Settings>;
`,

    [`src/${name}/${name}.module.ts`]: `import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ${pascal}Entity } from './entities/${name}.entity.js';
import { ${pascal}Controller } from './${name}.controller.js';
import { ${pascal}Repository } from './${name}.repository.js';
import { ${pascal}Service } from './${name}.service.js';

@Module({
  // forFeature registers the entity with the connection (autoLoadEntities).
  imports: [TypeOrmModule.forFeature([${pascal}Entity])],
  controllers: [${pascal}Controller],
  providers: [${pascal}Service, ${pascal}Repository],
  exports: [${pascal}Service],
})
export class ${pascal}Module {}
`,

    [`src/${name}/${name}.controller.ts`]: `import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { Buscar${pascal}QueryDto, ${pascal}PageDto } from './dto/buscar-${name}.dto.js';
import { type ${pascal}Page, ${pascal}Service } from './${name}.service.js';

@ApiTags('${name}')
@Controller('v1/${name}')
export class ${pascal}Controller {
  constructor(private readonly ${camel}: ${pascal}Service) {}

  @Get()
  @RequireScope('${scope}')
  @ApiOperation({
    summary: 'Search ${name} (scope ${scope})',
    description:
      'By name (\`q\`, case-insensitive, anywhere in the name), in name order, a page at a time. No match → 200 with \`total: 0\`.',
  })
  @ApiEnveloped(200, ${pascal}PageDto)
  @ApiErrors({
    422: '${code}: page × per_page past ${setting} (default 1000)',
  })
  buscar(@Query() query: Buscar${pascal}QueryDto): Promise<${pascal}Page> {
    return this.${camel}.buscar(query);
  }
}
`,

    [`src/${name}/${name}.service.ts`]: `import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error.js';
import { InjectSettings } from '../config/settings.js';
import { type Buscar${pascal}QueryDto, DEFAULT_PER_PAGE } from './dto/buscar-${name}.dto.js';
import { ${pascal}Repository } from './${name}.repository.js';
import { ${camel}Settings } from './${name}.settings.js';
import type { ${pascal}Settings } from './${name}.settings.js';

/** One item of a search, as the API answers it. */
export interface ${pascal}Item {
  codigo: string;
  nombre: string;
}

export interface ${pascal}Page {
  total: number;
  page: number;
  per_page: number;
  items: ${pascal}Item[];
}

/** The rules of ${name}: here, how far a search may read. */
@Injectable()
export class ${pascal}Service {
  constructor(
    private readonly repository: ${pascal}Repository,
    @InjectSettings(${camel}Settings) private readonly settings: ${pascal}Settings,
  ) {}

  async buscar(query: Buscar${pascal}QueryDto): Promise<${pascal}Page> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const max = this.settings.ventanaMaxima;
    if (page * perPage > max)
      throw new DomainError(
        '${code}',
        \`A search reads at most \${max} results: page × per_page must not exceed it\`,
        [{ field: 'page', issue: \`page \${page} of \${perPage} reads past result \${max}\` }],
      );
    const { total, rows } = await this.repository.search(query.q, perPage, (page - 1) * perPage);
    return {
      total,
      page,
      per_page: perPage,
      items: rows.map((r) => ({ codigo: r.codigo, nombre: r.nombre })),
    };
  }
}
`,

    [`src/${name}/${name}.repository.ts`]: `import { Injectable } from '@nestjs/common';
import { ILike } from 'typeorm';
import { Transactions } from '../database/transactions.js';
import { ${pascal}Entity } from './entities/${name}.entity.js';

/** ${table}: its reads and writes, through the entity (joining a running transaction). */
@Injectable()
export class ${pascal}Repository {
  constructor(private readonly transactions: Transactions) {}

  /** A page of the rows whose name contains \`text\` (all when absent), in name order. */
  async search(
    text: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: ${pascal}Entity[] }> {
    const like = text === undefined ? undefined : \`%\${text.replace(/[\\\\%_]/g, '\\\\$&')}%\`;
    const [rows, total] = await this.transactions.repository(${pascal}Entity).findAndCount({
      where: like === undefined ? {} : { nombre: ILike(like) },
      order: { nombre: 'ASC', codigo: 'ASC' },
      take: limit,
      skip: offset,
    });
    return { total, rows };
  }
}
`,

    [`src/${name}/entities/${name}.entity.ts`]: `import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One row of ${table} (migrations/${epoch}-${pascal}.ts creates the table). */
@Entity('${table}')
export class ${pascal}Entity {
  @PrimaryColumn('text') codigo: string;
  @Column('text') nombre: string;
  @CreateDateColumn({ type: 'timestamptz' }) creado_at: Date;
}
`,

    [`src/${name}/migrations/${epoch}-${pascal}.ts`]: `import { MigrationInterface, QueryRunner } from 'typeorm';

/** ${table}: the rows the search of ${name} reads. */
export class ${migration} implements MigrationInterface {
  name = '${migration}';

  async up(q: QueryRunner): Promise<void> {
    await q.query(\`
      CREATE TABLE ${table} (
        codigo text PRIMARY KEY CHECK (codigo ~ '^[0-9A-Za-z][0-9A-Za-z._-]{0,39}$'),
        nombre text NOT NULL CHECK (char_length(nombre) BETWEEN 1 AND 200),
        creado_at timestamptz NOT NULL DEFAULT now()
      )\`);
    await q.query(\`CREATE INDEX ${table}_nombre ON ${table} (lower(nombre), codigo)\`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(\`DROP TABLE ${table}\`);
  }
}
`,

    [`src/${name}/dto/buscar-${name}.dto.ts`]: `import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { TEXT_PATTERN } from '../../common/validation/patterns.js';
import { DecimalInt } from '../../common/validation/validators.js';

// The request's limits are written once, in class-validator; the document reads them from there
// (src/metadata.ts, \`npm run openapi:metadata\`), with each JSDoc as the description and
// \`@example\` as the example. @ApiProperty states only what no validator can (a default, an
// answer's limits).

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
const MAX_PAGE = 1_000_000;

/** A code as the table's CHECK holds it. */
const CODIGO_PATTERN = '^[0-9A-Za-z][0-9A-Za-z._-]{0,39}$';

export class Buscar${pascal}QueryDto {
  /**
   * Text searched in the name (case-insensitive, anywhere in it), 1–100 characters
   * @example 'salud'
   */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Length(1, 100, { message: 'must be from 1 to 100 characters' })
  @Matches(new RegExp(TEXT_PATTERN), { message: 'must not hold control characters' })
  q?: string;

  /**
   * Page, 1-based
   * @example 1
   */
  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: 1 })
  @IsOptional()
  @DecimalInt()
  @IsInt({ message: \`must be an integer from 1 to \${MAX_PAGE}\` })
  @Min(1, { message: \`must be an integer from 1 to \${MAX_PAGE}\` })
  @Max(MAX_PAGE, { message: \`must be an integer from 1 to \${MAX_PAGE}\` })
  page?: number;

  /**
   * Items per page
   * @example 20
   */
  @ApiPropertyOptional({ type: 'integer', format: 'int32', default: DEFAULT_PER_PAGE })
  @IsOptional()
  @DecimalInt()
  @IsInt({ message: \`must be an integer from 1 to \${MAX_PER_PAGE}\` })
  @Min(1, { message: \`must be an integer from 1 to \${MAX_PER_PAGE}\` })
  @Max(MAX_PER_PAGE, { message: \`must be an integer from 1 to \${MAX_PER_PAGE}\` })
  per_page?: number;
}

export class ${pascal}Dto {
  /**
   * Code
   * @example 'OS-0001'
   */
  @ApiProperty({ pattern: CODIGO_PATTERN, minLength: 1, maxLength: 40 })
  codigo: string;

  /**
   * Name
   * @example 'Obra Social de Salud'
   */
  @ApiProperty({ pattern: TEXT_PATTERN, minLength: 1, maxLength: 200 })
  nombre: string;
}

export class ${pascal}PageDto {
  /**
   * Matches in all pages
   * @example 1
   */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 })
  total: number;

  /** @example 1 */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: MAX_PAGE })
  page: number;

  /** @example 20 */
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: MAX_PER_PAGE })
  per_page: number;

  /** In name order */
  @ApiProperty({ type: [${pascal}Dto], maxItems: MAX_PER_PAGE })
  items: ${pascal}Dto[];
}
`,

    [`test/${name}.e2e-spec.ts`]: `import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createClient, TestClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('GET /v1/${name}', () => {
  let t: TestApp;
  let reader: TestClient;
  // The run's database is shared by every suite: this suite's rows carry a name of their own.
  const tag = randomUUID().slice(0, 8);

  beforeAll(async () => {
    // A short window, so a test can reach past it.
    t = await startTestApp({ ${setting}: '40' });
    reader = await createClient(t, { scopes: ['${scope}'] });
    await t.app.get(DataSource).query(
      \`INSERT INTO ${table} (codigo, nombre) VALUES ($1, $2), ($3, $4), ($5, $6)\`,
      [\`\${tag}-2\`, \`Zeta \${tag}\`, \`\${tag}-1\`, \`Alfa \${tag}\`, \`\${tag}-3\`, 'Other'],
    );
  });
  afterAll(async () => {
    await t?.stop();
  });

  const buscar = (query: Record<string, string | number>, c: TestClient = reader) =>
    request(t.url).get('/v1/${name}').query(query).set(c.headers);

  it('finds by part of the name, case-insensitively, in name order', async () => {
    const res = await buscar({ q: tag.toUpperCase() }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        total: 2,
        page: 1,
        per_page: 20,
        items: [
          { codigo: \`\${tag}-1\`, nombre: \`Alfa \${tag}\` },
          { codigo: \`\${tag}-2\`, nombre: \`Zeta \${tag}\` },
        ],
      },
    });
  });

  it('pages, and answers 200 with total 0 when nothing matches', async () => {
    const second = await buscar({ q: tag, page: 2, per_page: 1 }).expect(200);
    expect(second.body.data).toMatchObject({ total: 2, page: 2, per_page: 1 });
    expect(second.body.data.items).toEqual([{ codigo: \`\${tag}-2\`, nombre: \`Zeta \${tag}\` }]);
    const none = await buscar({ q: \`no-\${tag}\` }).expect(200);
    expect(none.body.data).toMatchObject({ total: 0, items: [] });
  });

  it('takes a % or _ in q literally', async () => {
    const res = await buscar({ q: \`%\${tag}\` }).expect(200);
    expect(res.body.data.total).toBe(0);
  });

  it('refuses a page past ${setting} with 422 ${code}', async () => {
    const res = await buscar({ page: 3, per_page: 20 }).expect(422);
    expect(res.body.error).toEqual({
      code: '${code}',
      message: 'A search reads at most 40 results: page × per_page must not exceed it',
      details: [{ field: 'page', issue: 'page 3 of 20 reads past result 40' }],
    });
  });

  it('refuses out-of-range paging with 400 VALIDATION_FAILED', async () => {
    const res = await buscar({ per_page: 101 }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('needs the scope ${scope} (403) and credentials (401)', async () => {
    const other = await createClient(t, { scopes: ['cuir:write'] });
    const forbidden = await buscar({ q: tag }, other).expect(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    await request(t.url).get('/v1/${name}').expect(401);
  });
});
`,
  };
}

/** Adds the slice's line to src/slices.ts, last in MODULE_SLICES. */
export function withSliceLine(slices, n) {
  const line = `  (await import('./${n.name}/${n.name}.slice.js')).${n.camel}Slice,\n`;
  const list = slices.indexOf('export const MODULE_SLICES');
  const end = slices.indexOf('];', list);
  if (list === -1 || end === -1) throw new Error('src/slices.ts: no MODULE_SLICES list found');
  return slices.slice(0, end) + line + slices.slice(end);
}

/** Writes the module into the repository at `root`; returns the paths it wrote. */
export function generate(name, root = process.cwd()) {
  const n = namesOf(name);
  if (existsSync(join(root, 'src', name))) throw new Error(`src/${name} exists already`);
  const slicesPath = join(root, 'src/slices.ts');
  const slices = readFileSync(slicesPath, 'utf8');
  if (slices.includes(`'./${name}/`)) throw new Error(`src/slices.ts lists ${name} already`);
  const files = moduleFiles(n, nextEpoch(root));
  for (const [path, text] of Object.entries(files)) {
    if (existsSync(join(root, path))) throw new Error(`${path} exists already`);
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(slicesPath, withSliceLine(slices, n));
  const written = [...Object.keys(files), 'src/slices.ts'];
  // The templates are written as prettier writes them; this keeps it so for any name's length.
  execFileSync(
    process.execPath,
    ['node_modules/prettier/bin/prettier.cjs', '--write', ...written],
    {
      cwd: root,
      stdio: 'ignore',
    },
  );
  // The document reads the new DTOs from the plugin's metadata: regenerate it.
  execFileSync(process.execPath, ['scripts/openapi-metadata.mjs'], { cwd: root, stdio: 'ignore' });
  return [...written, 'src/metadata.ts'];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const name = process.argv[2];
  if (!name || process.argv.length > 3) {
    process.stderr.write('usage: npm run new:module -- <name>   (e.g. obras-sociales)\n');
    process.exit(2);
  }
  try {
    const written = generate(name);
    process.stdout.write(
      `${written.map((p) => `  ${p}`).join('\n')}\n` +
        `Module ${name} written. Next: fill it in (docs/adding-a-module.md), then ` +
        `\`npm run docs:settings\` (README and .env.example), \`npm run check\` and ` +
        `\`npm test -- test/${name}.e2e-spec.ts\`.\n`,
    );
  } catch (err) {
    process.stderr.write(`new:module: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
