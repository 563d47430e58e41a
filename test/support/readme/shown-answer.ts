/**
 * The answers the README shows under its commands (`#  → …` comments), read as a loose JSON:
 *
 *   #  → 201 {"cuir":"0001…01","components":{"jurisdiction":"02",…}}
 *   #  → 200 {revertida: true, motivo_reversion, items: [{item: 1, …}], …}
 *   #  → 200 receta.pdf: one A4 page …          (a status alone, then prose)
 *
 * An optional HTTP status, then an optional value: JSON whose keys may be bare words, where a
 * bare key (`motivo_reversion`) says the member is there with any value, `…` alone is any value
 * (or, as a member or an element, "and more"), and `…` inside a string stands for any text.
 * Whatever follows the value is prose. Every member and element shown must be in the answer with
 * the value shown; members not shown are not looked at; an array shown without `…` has exactly
 * the elements shown. A value shown without `success` is compared with the envelope's `data`
 * (or `error`).
 */
export type Shown =
  | { kind: 'any' }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'text'; parts: string[] }
  | { kind: 'object'; members: Array<{ key: string; value?: Shown }> }
  | { kind: 'array'; items: Shown[]; more: boolean };

export interface ShownAnswer {
  status?: number;
  body?: Shown;
}

const ELLIPSIS = '…';

export function parseShownAnswer(text: string): ShownAnswer {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at "${text.slice(at, at + 40)}" in the answer "${text}"`);
  };
  const space = () => {
    while (at < text.length && /\s/.test(text[at])) at++;
  };
  const peek = () => (space(), text[at]);
  const expect = (c: string) => {
    if (peek() !== c) fail(`expected "${c}"`);
    at++;
  };
  const word = (): string | null => {
    space();
    const m = /^[A-Za-z_$][\w$-]*/.exec(text.slice(at));
    if (!m) return null;
    at += m[0].length;
    return m[0];
  };
  const string = (): string => {
    space();
    const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at));
    if (!m) return fail('expected a string');
    at += m[0].length;
    return JSON.parse(m[0]) as string;
  };
  const ellipsis = (): boolean => {
    if (peek() !== ELLIPSIS) return false;
    at++;
    return true;
  };
  const value = (): Shown => {
    const c = peek();
    if (ellipsis()) return { kind: 'any' };
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') {
      const s = string();
      return s.includes(ELLIPSIS)
        ? { kind: 'text', parts: s.split(ELLIPSIS) }
        : { kind: 'literal', value: s };
    }
    const n = /^-?\d+(\.\d+)?(?![\w.])/.exec(text.slice(at));
    if (n) {
      at += n[0].length;
      return { kind: 'literal', value: Number(n[0]) };
    }
    const w = word();
    if (w === 'true' || w === 'false') return { kind: 'literal', value: w === 'true' };
    if (w === 'null') return { kind: 'literal', value: null };
    return fail('expected a value');
  };
  const object = (): Shown => {
    expect('{');
    const members: Array<{ key: string; value?: Shown }> = [];
    while (peek() !== '}') {
      if (!ellipsis()) {
        const key = peek() === '"' ? string() : word();
        if (key === null) fail('expected a member');
        if (peek() === ':') {
          at++;
          members.push({ key: key as string, value: value() });
        } else members.push({ key: key as string });
      }
      if (peek() !== ',') break;
      at++;
    }
    expect('}');
    return { kind: 'object', members };
  };
  const array = (): Shown => {
    expect('[');
    const items: Shown[] = [];
    let more = false;
    while (peek() !== ']') {
      if (ellipsis()) more = true;
      else items.push(value());
      if (peek() !== ',') break;
      at++;
    }
    expect(']');
    return { kind: 'array', items, more };
  };

  const answer: ShownAnswer = {};
  const status = /^\s*(\d{3})(?!\d)/.exec(text);
  if (status) {
    answer.status = Number(status[1]);
    at = status[0].length;
  }
  const next = peek();
  if (next === '{' || next === '[') answer.body = value();
  else if (answer.status === undefined)
    fail('an answer starts with a status or a JSON value (write prose as a plain comment)');
  return answer;
}

const describe = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));

/** Every way `actual` differs from what is shown, each with its path (empty: it matches). */
export function mismatches(shown: Shown, actual: unknown, path = '$'): string[] {
  if (actual === undefined) return [`${path}: missing`];
  switch (shown.kind) {
    case 'any':
      return [];
    case 'literal':
      return actual === shown.value
        ? []
        : [`${path}: shown ${JSON.stringify(shown.value)}, got ${describe(actual)}`];
    case 'text': {
      const pattern = new RegExp(
        `^${shown.parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`,
      );
      return typeof actual === 'string' && pattern.test(actual)
        ? []
        : [`${path}: shown "${shown.parts.join(ELLIPSIS)}", got ${describe(actual)}`];
    }
    case 'object': {
      if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
        return [`${path}: shown an object, got ${describe(actual)}`];
      const record = actual as Record<string, unknown>;
      return shown.members.flatMap(({ key, value }) => {
        const at = `${path}.${key}`;
        if (!Object.hasOwn(record, key)) return [`${at}: missing`];
        return value ? mismatches(value, record[key], at) : [];
      });
    }
    case 'array': {
      if (!Array.isArray(actual)) return [`${path}: shown an array, got ${describe(actual)}`];
      const count =
        shown.more || actual.length === shown.items.length
          ? []
          : [`${path}: shown ${shown.items.length} elements, got ${actual.length}`];
      if (shown.more && actual.length < shown.items.length)
        count.push(`${path}: shown at least ${shown.items.length} elements, got ${actual.length}`);
      return [
        ...count,
        ...shown.items.flatMap((item, i) => mismatches(item, actual[i], `${path}[${i}]`)),
      ];
    }
  }
}

/**
 * The shown value against a whole answer body: one shown without `success` is compared with
 * the envelope's `data` (a success) or `error` (a failure).
 */
export function bodyMismatches(shown: Shown, body: unknown): string[] {
  const envelope =
    body !== null &&
    typeof body === 'object' &&
    typeof (body as { success?: unknown }).success === 'boolean';
  const showsEnvelope = shown.kind === 'object' && shown.members.some((m) => m.key === 'success');
  if (!envelope || showsEnvelope) return mismatches(shown, body);
  const e = body as { success: boolean; data?: unknown; error?: unknown };
  return e.success ? mismatches(shown, e.data, '$.data') : mismatches(shown, e.error, '$.error');
}
