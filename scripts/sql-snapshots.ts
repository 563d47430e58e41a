// `npm run sql:snapshots [-- --check]`: the SQL of every `x.sql.ts` written beside it as
// `x.snapshot.sql` (not `x.sql`: Jest would resolve `./x.sql.js` to it), so a change to a query
// shows in review as SQL. --check writes nothing and fails naming each stale snapshot.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventInStatementSql } from '../src/auditoria/auditoria.sql.js';
import { copyEventsSql } from '../src/auditoria/audit-seals.sql.js';
import { SqlParams } from '../src/common/sql/sql-params.js';
import { notIssuedToClientSql } from '../src/cuir/cuir-ownership.sql.js';
import { ISSUE_CUIR_SQL } from '../src/cuir/issue-cuir.sql.js';
import { insertDispensaSql } from '../src/dispensas/dispensas.sql.js';
import {
  answerWithIdSql,
  holdKeyGateSql,
  takeKeyGateSql,
} from '../src/idempotency/idempotency.sql.js';
import { searchStatement } from '../src/medicamentos/busqueda.sql.js';
import { insertJobSql } from '../src/queue/job.sql.js';
import { listingSql } from '../src/recetas/consulta/listado.sql.js';
import { firstDeliveryJobData } from '../src/recetas/notificacion/ministerio-delivery.sql.js';
import { recetaRowSql } from '../src/recetas/receta-row.sql.js';
import { insertRegistroSql } from '../src/recetas/registro/registro.sql.js';
import { recordVerificacionSql } from '../src/verificacion/verificacion.sql.js';

/** One statement a builder makes, for the snapshot: its case, and the SQL. */
type Example = [variant: string, sql: () => string];

const CLIENT = '00000000-0000-4000-8000-000000000001';
const CUIR = '12345678901234567890123456789012345678901';
const KEY = { clientId: CLIENT, key: CLIENT, requestHash: '0'.repeat(64), successStatus: 201 };
const event = eventInStatementSql({ tipo: 'registro', cuir: CUIR, actor: CLIENT, resultado: 'ok' });
const job = (p: SqlParams, source: string) =>
  insertJobSql('pgboss', p, {
    queue: 'ministerio-punteros',
    data: firstDeliveryJobData(source),
    from: source,
  });
const dates = { desde: new Date(0), hasta: new Date(0) };
const gate = (settle: typeof takeKeyGateSql) => {
  const p = new SqlParams();
  return settle(p, KEY, answerWithIdSql(p, '{}', 'x', 'r'), 'r');
};

/** Each exported builder, called as the service calls it; one without an entry stops the command. */
const BUILDERS: Record<string, Record<string, Example[]>> = {
  'auditoria/auditoria.sql.ts': {
    eventInStatementSql: [
      ['inside a statement whose new row is CTE r', () => event(new SqlParams(), 'r')],
    ],
  },
  'auditoria/audit-seals.sql.ts': {
    copyEventsSql: [['ids [1, 200001)', () => copyEventsSql(1n, 200_001n)]],
  },
  'cuir/cuir-ownership.sql.ts': {
    notIssuedToClientSql: [
      ['the guard', () => notIssuedToClientSql(CLIENT, CUIR)(new SqlParams())],
    ],
  },
  'cuir/issue-cuir.sql.ts': {
    ISSUE_CUIR_SQL: [['an issuance', () => ISSUE_CUIR_SQL]],
  },
  'dispensas/dispensas.sql.ts': {
    insertDispensaSql: [
      [
        'with its event',
        () =>
          insertDispensaSql(
            {
              id: CLIENT,
              id_transaccion: '1',
              client_id: CLIENT,
              farmacia_cuit: '20123456786',
              farmacia_nombre: 'Farmacia',
              fecha_dispensa: new Date(0),
              reserva_id: null,
              items: [{ item: 1, cantidad: 1, codigo: null, sustituido: false }],
            },
            [event],
          ).sql,
      ],
    ],
  },
  'idempotency/idempotency.sql.ts': {
    answerWithIdSql: [['the answer', () => answerWithIdSql(new SqlParams(), '{}', 'x', 'r')]],
    takeKeyGateSql: [['over CTE r', () => gate(takeKeyGateSql)]],
    holdKeyGateSql: [['over CTE r', () => gate(holdKeyGateSql)]],
  },
  'medicamentos/busqueda.sql.ts': {
    searchStatement: [
      [
        'with a trigram: its first statement',
        () => searchStatement('ibu', 20, 0).preferIndex ?? '',
      ],
    ],
  },
  'queue/job.sql.ts': {
    insertJobSql: [['the ministry job, inside a statement', () => job(new SqlParams(), 'r')]],
  },
  'recetas/consulta/listado.sql.ts': {
    listingSql: [
      [
        'no filter',
        () => listingSql({ clientId: CLIENT, ...dates, limit: 20, offset: 0 }, '1').sql,
      ],
      [
        'from a month on',
        () =>
          listingSql(
            { clientId: CLIENT, ...dates, limit: 20, offset: 0, idDesde: '202611000000000' },
            '1',
          ).sql,
      ],
      [
        'every filter',
        () =>
          listingSql(
            {
              clientId: CLIENT,
              ...dates,
              matricula: 'MN1',
              documento: { claro: '12345678', indice: Buffer.alloc(16) },
              estado: 'PENDING',
              limit: 20,
              offset: 0,
            },
            '1',
          ).sql,
      ],
    ],
  },
  'recetas/notificacion/ministerio-delivery.sql.ts': {
    firstDeliveryJobData: [['over CTE r', () => firstDeliveryJobData('r')]],
  },
  'recetas/receta-row.sql.ts': {
    recetaRowSql: [
      ['by cuir', () => recetaRowSql('cuir', false)],
      ['by cuir, locked', () => recetaRowSql('cuir', true)],
      ['by id', () => recetaRowSql('id_transaccion', false)],
      ['by id, locked', () => recetaRowSql('id_transaccion', true)],
    ],
  },
  'recetas/registro/registro.sql.ts': {
    insertRegistroSql: [
      [
        'as the writer sends it: job and event, Idempotency-Key gate, ownership guard',
        () =>
          insertRegistroSql(
            CLIENT,
            {
              documento_paciente: '12345678',
              matricula_profesional: 'MN1',
              locacion: 'x',
              cuir: CUIR,
              fecha_creacion: '2020-01-01T00:00:00Z',
              items: [],
            },
            {
              documento_cifrado: Buffer.alloc(42),
              documento_indice: Buffer.alloc(16),
              personales_cifrado: Buffer.alloc(120),
            },
            { desde: '2020-01-01', hasta: '2020-01-30' },
            CLIENT,
            [job, event],
            (p, source) => takeKeyGateSql(p, KEY, answerWithIdSql(p, '{}', 'x', source), source),
            notIssuedToClientSql(CLIENT, CUIR),
          ).sql,
      ],
    ],
  },
  'verificacion/verificacion.sql.ts': {
    recordVerificacionSql: [
      [
        'with its event',
        () =>
          recordVerificacionSql(
            {
              verifier_client_id: CLIENT,
              cuir: CUIR,
              id_transaccion: '1',
              owner_client_id: CLIENT,
              found: true,
            },
            [event],
          ).sql,
      ],
    ],
  },
};

/** Exported functions that make no SQL, each with what it is. */
const NOT_SQL: Record<string, Record<string, string>> = {
  'idempotency/idempotency.sql.ts': { requestHash: 'the hash of a request (canonical-hash.ts)' },
  'medicamentos/busqueda.sql.ts': { normalizeSearchText: 'how a query is folded before it binds' },
  'recetas/consulta/listado.sql.ts': { listingAnswer: "the listing's answer from its rows" },
  'recetas/registro/registro.sql.ts': { pendingAnswer: "a registration's answer" },
};

const STATEMENT = /^\s*(WITH|SELECT|INSERT|UPDATE|DELETE|COPY|SET)\b/i;

function* files(dir: string, suffix: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* files(path, suffix);
    else if (e.name.endsWith(suffix)) yield path;
  }
}

/** The snapshot of one `*.sql.ts` file: its exported statements, then its builders' examples. */
async function snapshot(rel: string): Promise<string> {
  const mod = (await import(
    pathToFileURL(join(import.meta.dirname, '../src', rel.replace(/\.ts$/, '.js'))).href
  )) as Record<string, unknown>;
  const parts = [
    `-- Generated by \`npm run sql:snapshots\` from src/${rel}: do not edit (CI checks it).`,
  ];
  const builders = BUILDERS[rel] ?? {};
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value === 'string' && STATEMENT.test(value)) {
      parts.push(`-- ${name}\n${value.trim()};`);
    } else if (typeof value === 'function' && !/^[A-Z]/.test(value.name || name)) {
      if (NOT_SQL[rel]?.[name]) continue;
      const examples = builders[name];
      if (!examples)
        throw new Error(`scripts/sql-snapshots.ts: add an example of ${name} (${rel})`);
      for (const [variant, sql] of examples) parts.push(`-- ${name}: ${variant}\n${sql().trim()};`);
    }
  }
  return `${parts.join('\n\n')}\n`;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const root = join(process.cwd(), 'src');
  const problems: string[] = [];
  const expected = new Set<string>();
  for (const file of files(root, '.sql.ts')) {
    const rel = relative(root, file);
    const target = file.replace(/\.sql\.ts$/, '.snapshot.sql');
    expected.add(target);
    const text = await snapshot(rel);
    const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (current === text) continue;
    if (check)
      problems.push(`${relative(process.cwd(), target)} ${current ? 'differs' : 'is missing'}`);
    else writeFileSync(target, text);
  }
  for (const file of files(root, '.snapshot.sql')) {
    if (expected.has(file)) continue;
    if (check) problems.push(`${relative(process.cwd(), file)} has no *.sql.ts any more`);
    else rmSync(file);
  }
  if (problems.length > 0) {
    process.stderr.write(
      `SQL snapshots out of date (run npm run sql:snapshots and commit the result):\n  ${problems.join('\n  ')}\n`,
    );
    process.exit(1);
  }
}

await main();
