// `npm run new:module -- <name>`: a working domain module in src/<name>/ (docs/adding-a-module.md
// shows what it writes, file by file), copied from the templates in scripts/new-module/ with the
// module's names put in: its slice (Nest module, scopes <name>:read and <name>:write, error codes
// with their OpenAPI examples, a documented setting, a migration, an OpenAPI tag and
// operationIds), the Nest module, a search route GET /v1/<name> and a write route POST /v1/<name>
// (Idempotency-Key, the row and its event-log entry in one transaction) with their controller,
// service and its unit spec, repository, entity and DTOs, and test/<name>.e2e-spec.ts over real
// HTTP and PostgreSQL. Outside the folder and the test it adds one line to src/slices.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** The templates: scripts/new-module/, each file as the module's, `.tmpl` appended. */
const TEMPLATES = fileURLToPath(new URL('./new-module/', import.meta.url));
const TOKEN = /__(name|Pascal|camel|UPPER|table|title|epoch)__/g;

/** Every template under `dir`, as paths relative to TEMPLATES. */
function templates(dir = TEMPLATES) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? templates(join(dir, e.name))
      : e.name.endsWith('.tmpl')
        ? [relative(TEMPLATES, join(dir, e.name))]
        : [],
  );
}

/** The generated files, path → text: every template with the module's names put in. */
export function moduleFiles(n, epoch) {
  const values = { ...n, Pascal: n.pascal, UPPER: n.upper, epoch: String(epoch) };
  const fill = (text) => text.replace(TOKEN, (_, token) => values[token]);
  const files = {};
  for (const template of templates()) {
    const text = fill(readFileSync(join(TEMPLATES, template), 'utf8'));
    const left = /__[A-Za-z]+__/.exec(text);
    if (left) throw new Error(`${template}: unknown token ${left[0]}`);
    files[fill(template.slice(0, -'.tmpl'.length))] = text;
  }
  return files;
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
  return [...written, 'generated/openapi-metadata.ts'];
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
        `\`npm run docs:settings\` (docs/operators.md and .env.example), \`npm run check\` and ` +
        `\`npm test -- src/${name}/${name}.service.spec.ts test/${name}.e2e-spec.ts\`.\n`,
    );
  } catch (err) {
    process.stderr.write(`new:module: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
