import { createHash, type Hash, hash } from 'node:crypto';

/**
 * Verify's fast path: a `COPY … TO STDOUT` row (text format) of COPY_COLUMNS, read under
 * COPY_SETTINGS, becomes eventText()'s bytes (audit-hash.ts) without a string per field. The
 * columns then arrive as `::text` renders them, but the time, rebuilt here in to_char's form.
 */
export const COPY_COLUMNS =
  'e.id, e.at, e.tipo, e.cuir::text, e.id_transaccion, e.actor, e.resultado, e.request_id, e.client_request_id, e.xid, e.hash';

export const COPY_SETTINGS = [
  `SET LOCAL TimeZone = 'UTC'`,
  `SET LOCAL DateStyle = 'ISO, YMD'`,
  `SET LOCAL bytea_output = 'hex'`,
];

const FIELDS = 11;
const [ID, AT, , , , , , , CLIENT_REQUEST_ID, XID, HASH] = Array.from(
  { length: FIELDS },
  (_, i) => i,
);
/** The fields of the text after the time, the client request id aside (ev2 only). */
const BEFORE_CLIENT_ID = [2, 3, 4, 5, 6, 7];

const TAB = 9;
const NL = 10;
const BACKSLASH = 92;
const PIPE = 124;
const COLON = 58;
const TILDE = 126;
const ZERO = 48;

/** A row that is not PostgreSQL's COPY output under COPY_SETTINGS. */
export class UnreadableRow extends Error {}

/** Reads one COPY row at a time; the text and hash buffers are reused from row to row. */
export class CopiedEvent {
  private readonly start = new Int32Array(FIELDS);
  private readonly end = new Int32Array(FIELDS);
  private row: Buffer = Buffer.alloc(0);
  private text: Buffer = Buffer.allocUnsafe(1024);
  private p = 0;

  load(row: Buffer): this {
    let s = 0;
    for (let f = 0; f < FIELDS - 1; f++) {
      const t = row.indexOf(TAB, s);
      if (t < 0) throw new UnreadableRow(`a row of ${f + 1} fields, not ${FIELDS}`);
      this.start[f] = s;
      this.end[f] = t;
      s = t + 1;
    }
    const e = row[row.length - 1] === NL ? row.length - 1 : row.length;
    if (row.indexOf(TAB, s) >= 0) throw new UnreadableRow(`a row of more than ${FIELDS} fields`);
    this.start[HASH] = s;
    this.end[HASH] = e;
    this.row = row;
    return this;
  }

  get id(): string {
    return this.row.toString('latin1', this.start[ID], this.end[ID]);
  }

  /** The writing transaction is in [from, to) (decimal texts, as xid8 renders them). */
  xidIn(from: Buffer, to: Buffer): boolean {
    return this.compareDecimal(XID, from) >= 0 && this.compareDecimal(XID, to) < 0;
  }

  hashMatches(): boolean {
    this.buildText();
    const computed = hash('sha256', this.text.subarray(0, this.p), 'hex');
    if (!this.isStoredHash()) return false;
    return this.row.toString('latin1', this.start[HASH] + 3, this.end[HASH]) === computed;
  }

  /** Adds the stored hash's bytes to `digest` (a seal's digest is over the stored hashes). */
  addStoredHash(digest: HashBytes): void {
    if (!this.isStoredHash()) throw new UnreadableRow('a hash not in hex');
    digest.addHex(this.row, this.start[HASH] + 3, this.end[HASH]);
  }

  /** eventText()'s bytes, in this.text[0, this.p). */
  private buildText(): void {
    const need = this.row.length + 16 * FIELDS + 64;
    if (this.text.length < need) this.text = Buffer.allocUnsafe(need * 2);
    const t = this.text;
    const ev2 = !this.isNull(CLIENT_REQUEST_ID);
    t[0] = 101; // e
    t[1] = 118; // v
    t[2] = ev2 ? 50 : 49; // 2 or 1
    let p = this.field(ID, 3);
    p = this.time(p);
    for (const f of BEFORE_CLIENT_ID) p = this.field(f, p);
    if (ev2) p = this.field(CLIENT_REQUEST_ID, p);
    this.p = this.field(XID, p);
  }

  /** Writes `|len:value`, or `|~` for NULL, at `p`; returns the position after it. */
  private field(f: number, p: number): number {
    const t = this.text;
    const row = this.row;
    t[p++] = PIPE;
    if (this.isNull(f)) {
      t[p++] = TILDE;
      return p;
    }
    const s = this.start[f];
    const e = this.end[f];
    const mark = p;
    p = writeDecimal(t, p, e - s);
    t[p++] = COLON;
    for (let i = s; i < e; i++) {
      const b = row[i];
      if (b === BACKSLASH) {
        // Only a value the insert trigger refuses has one: write the unescaped bytes instead.
        const v = unescapeCopy(row, s, e);
        p = writeDecimal(t, mark, v.length);
        t[p++] = COLON;
        for (let j = 0; j < v.length; j++) t[p++] = v[j];
        return p;
      }
      t[p++] = b;
    }
    return p;
  }

  /**
   * Writes `|len:YYYY-MM-DDTHH:MI:SS.ffffffZ` (to_char's: year without era, six fractional
   * digits; infinity, to_char's NULL, as `~`) from ISO's `YYYY-MM-DD HH:MI:SS[.f…]+00[ BC]`.
   */
  private time(p: number): number {
    const row = this.row;
    const s = this.start[AT];
    const e = this.end[AT];
    const t = this.text;
    t[p++] = PIPE;
    if (row[s] === 105 || row[s] === 45) {
      // infinity, -infinity
      t[p++] = TILDE;
      return p;
    }
    const space = row.indexOf(32, s);
    if (space < 0 || space + 9 > e || row[space + 3] !== COLON || row[space + 6] !== COLON) {
      throw new UnreadableRow(`a time not in ISO format: ${row.toString('latin1', s, e)}`);
    }
    p = writeDecimal(t, p, space - s + 17);
    t[p++] = COLON;
    for (let i = s; i < space; i++) t[p++] = row[i];
    t[p++] = 84; // T
    for (let i = space + 1; i < space + 9; i++) t[p++] = row[i];
    t[p++] = 46; // .
    let i = space + 9;
    let digits = 0;
    if (row[i] === 46) {
      for (i++; i < e && row[i] >= ZERO && row[i] <= ZERO + 9; i++, digits++) t[p++] = row[i];
    }
    if (digits > 6 || row[i] !== 43 || row[i + 1] !== ZERO || row[i + 2] !== ZERO) {
      throw new UnreadableRow(`a time not in UTC: ${row.toString('latin1', s, e)}`);
    }
    for (; digits < 6; digits++) t[p++] = ZERO;
    t[p++] = 90; // Z
    return p;
  }

  private isNull(f: number): boolean {
    const s = this.start[f];
    return this.end[f] - s === 2 && this.row[s] === BACKSLASH && this.row[s + 1] === 78;
  }

  /** COPY writes bytea's `\x…` with its backslash escaped: `\\x…`. */
  private isStoredHash(): boolean {
    const s = this.start[HASH];
    const row = this.row;
    return row[s] === BACKSLASH && row[s + 1] === BACKSLASH && row[s + 2] === 120;
  }

  /** Compares two unsigned decimals without leading zeros (xid8's output). */
  private compareDecimal(f: number, other: Buffer): number {
    const s = this.start[f];
    const len = this.end[f] - s;
    if (len !== other.length) return len < other.length ? -1 : 1;
    for (let i = 0; i < len; i++) {
      const d = this.row[s + i] - other[i];
      if (d !== 0) return d;
    }
    return 0;
  }
}

/** The digest of a seal's stored hashes, fed from hex, hashed in blocks. */
export class HashBytes {
  private readonly buf = Buffer.allocUnsafe(64 * 1024);
  private n = 0;
  private readonly h: Hash = createHash('sha256');

  addHex(src: Buffer, s: number, e: number): void {
    if ((e - s) % 2 !== 0) throw new UnreadableRow('a hash of an odd number of hex digits');
    if (this.n + (e - s) / 2 > this.buf.length) this.flush();
    if ((e - s) / 2 > this.buf.length) {
      this.h.update(Buffer.from(src.toString('latin1', s, e), 'hex'));
      return;
    }
    const buf = this.buf;
    let n = this.n;
    let bad = 0;
    for (let i = s; i < e; i += 2) {
      const hi = HEX[src[i]];
      const lo = HEX[src[i + 1]];
      bad |= hi | lo;
      buf[n++] = (hi << 4) | lo;
    }
    if (bad < 0) throw new UnreadableRow('a hash not in hex');
    this.n = n;
  }

  digest(): Buffer {
    this.flush();
    return this.h.digest();
  }

  private flush(): void {
    this.h.update(this.buf.subarray(0, this.n));
    this.n = 0;
  }
}

/** The value of a lower-case hex digit's byte, -1 for any other byte. */
const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[ZERO + i] = i;
for (let i = 0; i < 6; i++) HEX[97 + i] = 10 + i;

function writeDecimal(t: Buffer, p: number, n: number): number {
  if (n < 10) {
    t[p] = ZERO + n;
    return p + 1;
  }
  const digits = String(n);
  for (let i = 0; i < digits.length; i++) t[p + i] = digits.charCodeAt(i);
  return p + digits.length;
}

/** COPY TO's text escapes (a backslash before the character, or b f n r t v for controls). */
const ESCAPED: Record<number, number> = { 98: 8, 102: 12, 110: 10, 114: 13, 116: 9, 118: 11 };

export function unescapeCopy(row: Buffer, s: number, e: number): Buffer {
  const out = Buffer.allocUnsafe(e - s);
  let n = 0;
  for (let i = s; i < e; i++) {
    let b = row[i];
    if (b === BACKSLASH && i + 1 < e) {
      i++;
      b = ESCAPED[row[i]] ?? row[i];
    }
    out[n++] = b;
  }
  return out.subarray(0, n);
}
