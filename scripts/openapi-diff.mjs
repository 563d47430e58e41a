// Compares two OpenAPI documents (the served one before and after a change) and writes a
// Markdown report of every difference, each classed: a lost or changed constraint (a validation
// keyword or `required` entry removed or altered) is flagged and fails the run, so "the served
// document stays equivalent" is checked, not assumed.
//
//   node scripts/served-openapi.mjs /tmp/before.json          # on the old build
//   node scripts/openapi-diff.mjs /tmp/before.json [after.json] [--out docs/openapi-diff.md]
//
// Without after.json the document served by the current build (dist/) is used.
import { readFileSync, writeFileSync } from 'node:fs';
import { lengthBounds } from '../dist/src/common/validation/validator-schemas.js';

/** Keywords that say what a value may be: removing or changing one loosens or breaks the contract. */
const CONSTRAINTS = new Set([
  'type',
  'format',
  'pattern',
  'enum',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'nullable',
  'additionalProperties',
  'required',
  '$ref',
  'items',
  'oneOf',
  'anyOf',
  'allOf',
]);
/** Keywords that only explain: a change there is documentation. */
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', 'deprecated']);

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const out = option('--out');
const beforeLabel = option('--before-label');
const afterLabel = option('--after-label');
const [beforePath, afterPath] = args;
if (!beforePath) {
  process.stderr.write('usage: openapi-diff.mjs BEFORE.json [AFTER.json] [--out report.md]\n');
  process.exit(2);
}
const before = JSON.parse(readFileSync(beforePath, 'utf8'));
const after = afterPath
  ? JSON.parse(readFileSync(afterPath, 'utf8'))
  : await (await import('./served-openapi.mjs')).servedOpenApi();

/** Key order is not meaning; nor is the order of `required` and `enum` lists or of parameters. */
function normalize(value, key) {
  if (Array.isArray(value)) {
    const items = value.map((v) => normalize(v));
    // Parameters are named: their order in the list says nothing.
    if (key === 'parameters') {
      return [...items].sort((a, b) =>
        `${a.in}:${a.name ?? a.$ref}`.localeCompare(`${b.in}:${b.name ?? b.$ref}`),
      );
    }
    return key === 'required' || key === 'enum'
      ? [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
      : items;
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, normalize(value[k], k)]),
    );
  }
  return value;
}

const differences = [];
/** A parameter is shown by its name (`parameters/query:documento`), not its index. */
const named = (path) =>
  path.map((p, i) => {
    if (path[i - 1] !== 'parameters' || typeof p !== 'number') return p;
    let list = afterN;
    for (const q of path.slice(0, i)) list = list?.[q];
    const parameter = list?.[p];
    return parameter?.name ? `${parameter.in}:${parameter.name}` : p;
  });
const pointer = (path) =>
  path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const show = (v) => {
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
};

function classify(path, kind) {
  const key = path[path.length - 1];
  const parent = path[path.length - 2];
  // A property of a schema (…/properties/<name>) added or removed.
  if (parent === 'properties') return kind === 'added' ? 'property added' : 'CONSTRAINT LOST';
  if (path.includes('required') && typeof key === 'number') {
    return kind === 'added' ? 'constraint added' : 'CONSTRAINT LOST';
  }
  if (path.includes('enum') && typeof key === 'number') {
    return kind === 'added' ? 'CONSTRAINT CHANGED' : 'CONSTRAINT CHANGED';
  }
  if (PROSE.has(key) || path.some((p) => p === 'examples' || p === 'example')) return 'prose';
  if (CONSTRAINTS.has(key)) {
    if (kind === 'added') return 'constraint added';
    return kind === 'removed' ? 'CONSTRAINT LOST' : 'CONSTRAINT CHANGED';
  }
  return 'other';
}

function diff(a, b, path) {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const bothObjects =
    a &&
    b &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    Array.isArray(a) === Array.isArray(b);
  const key = path[path.length - 1];
  if (bothObjects && Array.isArray(a) && (key === 'required' || key === 'enum')) {
    const as = new Set(a.map((x) => JSON.stringify(x)));
    const bs = new Set(b.map((x) => JSON.stringify(x)));
    for (const x of as) if (!bs.has(x)) record([...path, 0], 'removed', JSON.parse(x), undefined);
    for (const x of bs) if (!as.has(x)) record([...path, 0], 'added', undefined, JSON.parse(x));
    return;
  }
  if (bothObjects && !PROSE.has(key)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) {
      const p = [...path, Array.isArray(a) ? Number(k) : k];
      if (!(k in b)) record(p, 'removed', a[k], undefined);
      else if (!(k in a)) record(p, 'added', undefined, b[k]);
      else diff(a[k], b[k], p);
    }
    return;
  }
  record(path, 'changed', a, b);
}

function record(path, kind, was, now) {
  differences.push({
    path,
    kind,
    was,
    now,
    class: classify(path, kind),
    note: noteOn(path, kind, now),
  });
}

/** Why an added length is harmless: the schema's own anchored pattern already fixes it. */
function noteOn(path, kind, now) {
  const key = path[path.length - 1];
  if (kind !== 'added' || (key !== 'minLength' && key !== 'maxLength')) return '';
  let schema = afterN;
  for (const p of path.slice(0, -1)) schema = schema?.[p];
  const pattern = schema?.pattern;
  if (typeof pattern !== 'string') return '';
  return lengthBounds(pattern)[key] === now ? ` — implied by its pattern \`${pattern}\`` : '';
}

const beforeN = normalize(before);
const afterN = normalize(after);
diff(beforeN, afterN, []);

const flagged = differences.filter((d) => d.class.startsWith('CONSTRAINT '));
const byClass = new Map();
for (const d of differences) byClass.set(d.class, (byClass.get(d.class) ?? 0) + 1);

const lines = [
  '# OpenAPI document: before and after',
  '',
  'Generated by `node scripts/openapi-diff.mjs` (see its header): the document served before',
  'and after the change, key order and the order of `required`/`enum` lists normalized. Every',
  'difference is listed and classed; a lost or changed constraint would be flagged in capitals',
  "and fail the script. Parameters are compared by name: the plugin lists a query class's",
  'fields in declaration order, so their order in `parameters` may differ.',
  '',
  `- Before: ${beforeLabel ?? `\`${beforePath}\``} (${Object.keys(before.components?.schemas ?? {}).length} schemas, ${Object.keys(before.paths ?? {}).length} paths)`,
  `- After: ${afterLabel ?? (afterPath ? `\`${afterPath}\`` : 'the current build, as served')} (${Object.keys(after.components?.schemas ?? {}).length} schemas, ${Object.keys(after.paths ?? {}).length} paths)`,
  '',
  '## Summary',
  '',
  differences.length === 0 ? 'No difference.' : '| Class | Count |\n| --- | --- |',
  ...[...byClass].sort().map(([c, n]) => `| ${c} | ${n} |`),
  '',
  '## Differences',
  '',
  ...(differences.length === 0 ? ['None.'] : []),
  ...differences.map(
    (d) =>
      `- **${d.class}** \`${pointer(named(d.path))}\`: ${d.kind}${d.kind !== 'added' ? ` (was ${show(d.was)})` : ''}${d.kind !== 'removed' ? ` (now ${show(d.now)})` : ''}${d.note}`,
  ),
  '',
];
const report = lines.join('\n');
if (out) {
  const prettier = await import('prettier');
  const options = { ...(await prettier.resolveConfig(out)), filepath: out };
  writeFileSync(out, await prettier.format(report, options));
} else process.stdout.write(report);
process.stderr.write(
  `${differences.length} difference(s); ${flagged.length} lost or changed constraint(s).\n`,
);
process.exit(flagged.length > 0 ? 1 : 0);
