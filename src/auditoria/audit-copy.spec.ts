import fc from 'fast-check';
import { CopiedEvent, HashBytes, unescapeCopy, UnreadableRow } from './audit-copy.js';
import { eventHash, type EventFields, sha256 } from './audit-hash.js';

/** A timestamp as to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') and as ISO output (TimeZone UTC). */
interface Time {
  canonical: string;
  iso: string;
}

const time = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 10000, max: 99999 })),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    micro: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999_999 }), fc.constant(500_000)),
    bc: fc.boolean(),
  })
  .map((t): Time => {
    const p2 = (n: number) => String(n).padStart(2, '0');
    const date = `${String(t.year).padStart(4, '0')}-${p2(t.month)}-${p2(t.day)}`;
    const clock = `${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)}`;
    const us = String(t.micro).padStart(6, '0');
    // ISO output drops trailing zeros of the fraction, and the fraction when it is zero.
    const frac = us.replace(/0+$/, '');
    return {
      canonical: `${date}T${clock}.${us}Z`,
      iso: `${date} ${clock}${frac ? `.${frac}` : ''}+00${t.bc ? ' BC' : ''}`,
    };
  });

// Text values as a forger could leave them too: tabs, newlines, backslashes, non-ASCII.
const text = fc.oneof(
  fc.stringMatching(/^[a-z0-9_:.-]{1,40}$/),
  fc.string({ unit: fc.constantFrom('a', 'Z', '\t', '\n', '\r', '\\', 'N', 'é', '|', ':', '~') }),
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const digits = fc.bigInt({ min: 1n, max: 9223372036854775807n }).map(String);

const event = fc.record({
  id: digits,
  time: fc.oneof(time, fc.constantFrom<Time | null>(null)),
  tipo: text,
  cuir: maybe(fc.stringMatching(/^[0-9]{41}$/)),
  id_transaccion: maybe(digits),
  actor: text,
  resultado: text,
  request_id: maybe(text),
  client_request_id: maybe(text),
  xid: digits,
});
type Generated = typeof event extends fc.Arbitrary<infer T> ? T : never;

/** What eventText hashes: the canonical time, NULL for infinity (to_char's NULL). */
const fieldsOf = (g: Generated): EventFields => ({
  ...g,
  at: (g.time?.canonical ?? null) as string,
});

/** The event as COPY TO STDOUT writes it (text format), its hash as bytea's hex. */
function copyRow(g: Generated, hash: Buffer): Buffer {
  const escape = (v: string | null) =>
    v === null
      ? '\\N'
      : v.replace(/[\\\t\n\r\b\f\v]/g, (c) => {
          const e: Record<string, string> = {
            '\\': '\\\\',
            '\t': '\\t',
            '\n': '\\n',
            '\r': '\\r',
            '\b': '\\b',
            '\f': '\\f',
            '\v': '\\v',
          };
          return e[c];
        });
  const values = [
    g.id,
    g.time?.iso ?? 'infinity',
    g.tipo,
    g.cuir,
    g.id_transaccion,
    g.actor,
    g.resultado,
    g.request_id,
    g.client_request_id,
    g.xid,
  ].map(escape);
  return Buffer.from(`${[...values, `\\\\x${hash.toString('hex')}`].join('\t')}\n`);
}

describe('CopiedEvent (verify reading COPY rows)', () => {
  it('hashes a row as eventText() does: any field, NULLs, escapes, ev1 and ev2, any year', () => {
    const ev = new CopiedEvent();
    fc.assert(
      fc.property(event, (g) => {
        const hash = eventHash(fieldsOf(g));
        expect(ev.load(copyRow(g, hash)).hashMatches()).toBe(true);
        expect(ev.id).toBe(g.id);
      }),
      { numRuns: 2000 },
    );
  });

  it('sees any field changed, the time to the microsecond included', () => {
    const ev = new CopiedEvent();
    fc.assert(
      fc.property(event, fc.constantFrom('tipo', 'actor', 'resultado', 'xid', 'micro'), (g, f) => {
        const hash = eventHash(fieldsOf(g));
        const changed: Generated =
          f === 'micro'
            ? {
                ...g,
                time: g.time && {
                  ...g.time,
                  iso: g.time.iso.replace(/:(\d\d)(\.\d+)?\+/, (_, s) => `:${s}.000007+`),
                },
              }
            : { ...g, [f]: `${g[f]}0` };
        fc.pre(changed.time?.iso !== g.time?.iso || f !== 'micro');
        expect(ev.load(copyRow(changed, hash)).hashMatches()).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('tells whether the writing transaction is in a seal range, as numbers', () => {
    const ev = new CopiedEvent();
    const g = fc.sample(event, { numRuns: 1, seed: 1 })[0];
    const at = (xid: string) => ev.load(copyRow({ ...g, xid }, Buffer.alloc(32)));
    const range = [Buffer.from('100'), Buffer.from('1000')] as const;
    expect(at('99').xidIn(...range)).toBe(false);
    expect(at('100').xidIn(...range)).toBe(true);
    expect(at('999').xidIn(...range)).toBe(true);
    expect(at('1000').xidIn(...range)).toBe(false);
    expect(at('10000').xidIn(...range)).toBe(false);
  });

  it('feeds the stored hashes to a seal digest as sha256 over their bytes', () => {
    const ev = new CopiedEvent();
    const g = fc.sample(event, { numRuns: 1, seed: 2 })[0];
    const hashes = Array.from({ length: 5000 }, (_, i) => sha256(String(i)));
    const digest = new HashBytes();
    for (const h of hashes) ev.load(copyRow(g, h)).addStoredHash(digest);
    expect(digest.digest()).toEqual(sha256(Buffer.concat(hashes)));
  });

  it('refuses what COPY never sends: a short row, a time outside UTC', () => {
    const ev = new CopiedEvent();
    expect(() => ev.load(Buffer.from('1\t2\t3\n'))).toThrow(UnreadableRow);
    const g = fc.sample(event, { numRuns: 1, seed: 3 })[0];
    const row = copyRow(
      { ...g, time: { canonical: '', iso: '2026-01-01 10:00:00-03' } },
      sha256(''),
    );
    expect(() => ev.load(row).hashMatches()).toThrow(UnreadableRow);
  });

  it('unescapes COPY text', () => {
    const b = Buffer.from('a\\\\b\\tc\\nd\\re\\N');
    expect(unescapeCopy(b, 0, b.length).toString()).toBe('a\\b\tc\nd\reN');
  });
});
