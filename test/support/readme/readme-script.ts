import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellBlock } from './markdown-blocks.js';
import { bodyMismatches, parseShownAnswer, type ShownAnswer } from './shown-answer.js';

/** Where a statement or an answer stands in the docs (`README.md:123`). */
export type Place = string;

export interface ShownAt {
  at: Place;
  text: string;
  answer: ShownAnswer;
}

export interface ReadmeScript {
  /** The blocks' statements in order, each after `__at '<place>'`, answers as `__answer <i>`. */
  body: string;
  answers: ShownAt[];
  /** The placeholders (`KEY=rk_…`) the statements assign, by name. */
  placeholders: string[];
}

const ANSWER = /^\s*#\s*→\s?(.*)$/;
const COMMENT = /^\s*#/;
/** A comment line that continues an answer: indented past the answer's own `#  →`. */
const CONTINUATION = /^\s*# {3,}(?!\s*→)(.*)$/;
/** `NAME=value` whose value shows a placeholder (`KEY=rk_…`), outside quotes. */
const PLACEHOLDER = /(^|[\s;])([A-Z][A-Z0-9_]*)=([^\s;'"]*…[^\s;'"]*)/g;

/** Whether bash reads `text` as complete statements (no open quote, `$(`, or `\` at the end). */
function complete(text: string): boolean {
  if (/\\\s*$/.test(text)) return false;
  return spawnSync('bash', ['-n'], { input: text, encoding: 'utf8' }).status === 0;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * One bash script of the blocks, in order: each complete statement (however many lines it
 * takes) is preceded by `__at '<file:line>'`, so a failure names its place; each `#  → …`
 * answer becomes `__answer <i>`, which ties answer i to the HTTP or CLI answer recorded last.
 * `rewrite` maps every statement's and answer's text (the test instance's ports).
 */
export function readmeScript(blocks: ShellBlock[], rewrite: (s: string) => string): ReadmeScript {
  const out: string[] = [];
  const answers: ShownAt[] = [];
  const placeholders = new Set<string>();
  for (const block of blocks) {
    out.push(`# ---- ${block.file}:${block.line - 1} (${block.heading})`);
    let pending: { start: number; lines: string[] } | null = null;
    for (let i = 0; i < block.lines.length; i++) {
      const line = block.lines[i];
      const place = `${block.file}:${block.line + i}`;
      if (!pending) {
        if (line.trim() === '') continue;
        const a = ANSWER.exec(line);
        if (a) {
          const parts = [a[1]];
          while (i + 1 < block.lines.length && CONTINUATION.test(block.lines[i + 1]))
            parts.push((CONTINUATION.exec(block.lines[++i]) as RegExpExecArray)[1]);
          const text = rewrite(parts.join(' ').trim());
          let answer: ShownAnswer;
          try {
            answer = parseShownAnswer(text);
          } catch (e) {
            throw new Error(`${place}: ${(e as Error).message}`);
          }
          out.push(`__answer ${answers.length}`);
          answers.push({ at: place, text, answer });
          continue;
        }
        if (COMMENT.test(line)) continue;
        pending = { start: i, lines: [] };
      }
      pending.lines.push(line);
      const text = pending.lines.join('\n');
      if (!complete(text)) continue;
      const statement = rewrite(text).replace(
        PLACEHOLDER,
        (_m, lead: string, name: string, shown: string) => {
          placeholders.add(name);
          return `${lead}${name}="$(__placeholder ${name} ${quote(shown)})"`;
        },
      );
      out.push(`__at ${quote(`${block.file}:${block.line + pending.start}`)}`, statement);
      pending = null;
    }
    if (pending)
      throw new Error(
        `${block.file}:${block.line + pending.start}: a statement never ends (an open quote?)`,
      );
  }
  return { body: out.join('\n'), answers, placeholders: [...placeholders] };
}

/**
 * What the script runs before the blocks: bash's strict mode, and the commands the README
 * names, wrapped so the test sees their answers. `curl` is the real curl, its headers and body
 * also kept under $__R/<n>; `npm run …` runs in the checkout (the script's folder is a scratch
 * one, where `-o receta.pdf` lands), its output kept the same way; `npm start` (re)starts the
 * service as `npm start` runs it (node with its flags, on the test's ports and database, with
 * the environment the README gives it), and its banner gives `KEY=rk_…`/`SECRET=rs_…`; `npm ci`
 * and `npm test` are not re-run (node_modules is shared; this test is part of that suite).
 */
export function prelude(options: { repo: string; records: string; deathWrapper: string[] }) {
  return String.raw`
set -eEo pipefail
shopt -s inherit_errexit
__R=${quote(options.records)}
__REPO=${quote(options.repo)}
echo 0 > "$__R/n"
echo 0 > "$__R/starts"
echo start > "$__R/at"
trap 'echo "README command failed (exit $?) at $(cat "$__R/at"): $BASH_COMMAND" >&2' ERR
__at() { echo "$1" > "$__R/at"; }
__answer() { echo "$1 $(cat "$__R/n")" >> "$__R/answers"; }
__next() {
  local n; n=$(( $(cat "$__R/n") + 1 )); echo "$n" > "$__R/n"
  cp "$__R/at" "$__R/$n.at"; echo "$1" > "$__R/$n.kind"; echo "$n"
}
curl() {
  local n; n=$(__next curl)
  command curl -D "$__R/$n.headers" "$@" | tee "$__R/$n.body"
}
__stop() {
  if [[ -s "$__R/service.pid" ]]; then
    local pid; pid=$(cat "$__R/service.pid"); : > "$__R/service.pid"
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
}
trap __stop EXIT
__start() {
  __stop
  rm -f "$__R/key" "$__R/secret"
  local k; k=$(( $(cat "$__R/starts") + 1 )); echo "$k" > "$__R/starts"
  local log="$__R/service.$k.log"
  (cd "$__REPO" && exec ${options.deathWrapper.map(quote).join(' ')} node --max-old-space-size=192 --max-semi-space-size=16 dist/src/main.js) > "$log" 2>&1 &
  echo $! > "$__R/service.pid"
  local i
  for i in $(seq 1 600); do
    if grep -q 'X-API-Secret:' "$log"; then
      grep -o 'rk_[A-Za-z0-9_-]*' "$log" | head -1 > "$__R/key"
      grep -o 'rs_[A-Za-z0-9_-]*' "$log" | head -1 > "$__R/secret"
      return 0
    fi
    kill -0 "$(cat "$__R/service.pid")" 2>/dev/null || { cat "$log" >&2; return 1; }
    sleep 0.1
  done
  echo "the service printed no banner in 60 s" >&2; return 1
}
npm() {
  case "$1" in
    ci) echo "(npm ci: not re-run by the test)" ;;
    test) echo "(npm test: the suite this test belongs to; not re-run)" ;;
    start) __start ;;
    *)
      local n; n=$(__next npm)
      (cd "$__REPO" && command npm "$@") | tee "$__R/$n.body"
      ;;
  esac
}
__placeholder() {
  local v
  case "$1" in
    KEY) v=$(cat "$__R/key") ;;
    SECRET) v=$(cat "$__R/secret") ;;
    *) echo "the placeholder $1=$2 has no value in the test" >&2; return 1 ;;
  esac
  [[ "$v" == "${'${2%%…*}'}"* ]] || { echo "$1: the banner's value does not start as shown ($2)" >&2; return 1; }
  printf '%s' "$v"
}
`;
}

/** One command's recorded answer: curl's (its status from its headers) or the tool's output. */
function recorded(records: string, n: number) {
  const read = (ext: string) => {
    const file = join(records, `${n}.${ext}`);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  const statuses = [...read('headers').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)];
  return {
    at: read('at').trim(),
    kind: read('kind').trim(),
    status: statuses.length > 0 ? Number(statuses[statuses.length - 1][1]) : undefined,
    body: read('body'),
  };
}

/**
 * What a run's records say against the answers shown: each shown answer against the command's
 * answer it follows (status, then every member shown), every shown answer reached, and every
 * HTTP error status one the text shows (curl -s exits 0 on any status).
 */
export function answerProblems(records: string, answers: ShownAt[]): string[] {
  const problems: string[] = [];
  const ties = existsSync(join(records, 'answers'))
    ? readFileSync(join(records, 'answers'), 'utf8').split('\n').filter(Boolean)
    : [];
  const shownStatus = new Map<number, number[]>();
  let previous = 0;
  for (const tie of ties) {
    const [i, n] = tie.split(' ').map(Number);
    const shown = answers[i];
    if (n === 0 || n === previous) {
      problems.push(`${shown.at}: an answer shown after no command that answered`);
      continue;
    }
    previous = n;
    const got = recorded(records, n);
    if (shown.answer.status !== undefined)
      shownStatus.set(n, [...(shownStatus.get(n) ?? []), shown.answer.status]);
    if (shown.answer.status !== undefined && shown.answer.status !== got.status)
      problems.push(`${shown.at}: shown ${shown.answer.status}, got ${got.status} ${got.body}`);
    if (!shown.answer.body) continue;
    let body: unknown;
    try {
      body = JSON.parse(got.body);
    } catch {
      problems.push(`${shown.at}: shown a JSON answer, got ${JSON.stringify(got.body)}`);
      continue;
    }
    const off = bodyMismatches(shown.answer.body, body);
    if (off.length > 0)
      problems.push(
        `${shown.at}: the answer differs from what the text shows:\n  ${off.join('\n  ')}\n  got: ${got.body}`,
      );
  }
  if (problems.length === 0 && ties.length < answers.length)
    problems.push(`${answers[ties.length].at}: never reached (the script stopped before it)`);
  const count = Number(readFileSync(join(records, 'n'), 'utf8'));
  for (let n = 1; n <= count; n++) {
    const got = recorded(records, n);
    if (got.kind !== 'curl' || got.status === undefined || got.status < 400) continue;
    if (!shownStatus.get(n)?.includes(got.status))
      problems.push(`${got.at}: answered ${got.status}, which the text does not show: ${got.body}`);
  }
  return problems;
}
