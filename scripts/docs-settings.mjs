// `npm run docs:settings`: writes the settings table of docs/operators.md (between its settings
// markers) and `.env.example` from the settings' @Documented declarations
// (src/config/setting-docs.ts): the core's and every module slice's, in the order of src/slices.ts.
// `-- --check` (in `npm run check`) changes nothing and fails when a setting is undocumented,
// when a documented default is not what the code does, or when the files are stale. A module
// none of whose settings are in the files yet (one `npm run new:module` just made) is only a
// warning there; `--strict` (CI) fails on it too: run `npm run docs:settings` and commit both files.
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import * as prettier from 'prettier';
import { CoreVariables } from '../dist/src/config/core.variables.js';
import {
  envExample,
  settingDocs,
  settingsTable,
  undocumented,
} from '../dist/src/config/setting-docs.js';
import { loadAppConfig, MODULE_SLICES } from '../dist/src/slices.js';

const TABLE_PAGE = 'docs/operators.md';
const ENV_EXAMPLE = '.env.example';
const BEGIN = '<!-- settings:begin -->';
const END = '<!-- settings:end -->';

const check = process.argv.includes('--check');
const strict = process.argv.includes('--strict');

const groups = [
  { title: 'Core', variables: CoreVariables },
  ...MODULE_SLICES.flatMap((slice) =>
    (slice.settings ?? []).map((s) => ({ title: s.title ?? s.name, variables: s.variables })),
  ),
];

const problems = [];

for (const g of groups) {
  for (const name of undocumented(g))
    problems.push(`${name} (${g.title}) has no @Documented('…', { default }) declaration`);
}

// A documented default must be what the code does: setting it changes nothing.
const snapshot = (env) => {
  const c = loadAppConfig(env);
  // Only whether EMBEDDED_DB_DIR was given (root may move a default folder) tells them apart.
  return JSON.parse(
    JSON.stringify(
      { ...c, slices: c.slices.map((s) => c.settings(s)), warnings: undefined },
      (k, v) => (k === 'dirIsDefault' ? undefined : v),
    ),
  );
};
const unset = snapshot({});
for (const g of groups) {
  for (const d of settingDocs(g.variables)) {
    if (d.default === undefined) continue;
    if (!isDeepStrictEqual(snapshot({ [d.name]: String(d.default) }), unset))
      problems.push(`${d.name}: the documented default ${d.default} is not the code's`);
  }
}

async function tablePage(groupsShown) {
  const text = readFileSync(TABLE_PAGE, 'utf8');
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  if (from === -1 || to < from) throw new Error(`${TABLE_PAGE}: no ${BEGIN} … ${END} markers`);
  const next = `${text.slice(0, from + BEGIN.length)}\n\n${settingsTable(groupsShown)}\n\n${text.slice(to)}`;
  const options = (await prettier.resolveConfig(TABLE_PAGE)) ?? {};
  return { current: text, next: await prettier.format(next, { ...options, filepath: TABLE_PAGE }) };
}

const documented = readFileSync(ENV_EXAMPLE, 'utf8');
const isNew = (g) =>
  settingDocs(g.variables).length > 0 &&
  settingDocs(g.variables).every((d) => !new RegExp(`^${d.name}=`, 'm').test(documented));

if (!check) {
  if (problems.length > 0) fail(problems);
  const { next } = await tablePage(groups);
  writeFileSync(TABLE_PAGE, next);
  writeFileSync(ENV_EXAMPLE, envExample(groups));
  process.stdout.write(
    `${TABLE_PAGE} (settings table) and ${ENV_EXAMPLE}: written from the code.\n`,
  );
  process.exit(0);
}

const fresh = groups.filter(isNew);
if (strict)
  for (const g of fresh)
    problems.push(`the settings of ${g.title} are in neither ${TABLE_PAGE} nor ${ENV_EXAMPLE}`);
const shown = strict ? groups : groups.filter((g) => !fresh.includes(g));
const { current, next } = await tablePage(shown);
if (current !== next) problems.push(`${TABLE_PAGE}'s settings table is stale`);
if (documented !== envExample(shown)) problems.push(`${ENV_EXAMPLE} is stale`);
if (problems.length > 0) fail(problems);
if (!strict)
  for (const g of fresh)
    process.stderr.write(
      `docs:settings: the settings of ${g.title} are in neither ${TABLE_PAGE} nor ${ENV_EXAMPLE} yet: run \`npm run docs:settings\` before committing (CI fails until then).\n`,
    );
process.stdout.write(
  `docs:settings: ${TABLE_PAGE}'s settings table and ${ENV_EXAMPLE} follow the code.\n`,
);
process.exit(0);

function fail(list) {
  process.stderr.write(
    `docs:settings:\n${list.map((p) => `  - ${p}`).join('\n')}\n` +
      'Each setting needs @Documented (src/config/setting-docs.ts); `npm run docs:settings` rewrites both files.\n',
  );
  process.exit(1);
}
