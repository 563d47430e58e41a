// `npm test`: the unit and e2e projects, as always. `npm test -- <path> [<path>…] [jest options]`:
// exactly those files, whichever project each belongs to (unit, e2e or reliability; Jest runs a
// project's global setup only when one of its files runs). The `pretest` script has built dist/
// first if a source changed since the last build (the e2e setup imports the build).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const args = process.argv.slice(2);
// A word that names an existing file or folder is a path; anything else is Jest's (a flag, or a
// flag's value such as -t's test name).
const isPath = (a) => !a.startsWith('-') && existsSync(a);
const paths = args.filter(isPath);
const files = paths.length > 0 && paths.every((p) => statSync(p).isFile());

const jest = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js'];
// No argument: exactly the command \`npm test\` always ran. Options only (\`-t name\`,
// \`--listTests\`): the same projects, the options before any \`--\` so Jest reads them as options.
const command =
  paths.length === 0
    ? [...jest, '--selectProjects', 'unit', 'e2e', ...(args.length === 0 ? ['--'] : args)]
    : [...jest, ...(files ? ['--runTestsByPath'] : []), ...args];

const run = spawnSync(process.execPath, command, { stdio: 'inherit' });
process.exit(run.status ?? 1);
