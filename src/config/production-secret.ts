/**
 * The rule of every server secret an operator sets (those a slice declares with
 * `defineSettings(…, { secrets })`): in production each is required, strong and distinct from
 * the others (SPEC 11.9); elsewhere a text secret, when set, has at least 16 characters.
 * Problems name the variable, never the value.
 */

const MIN_SECRET_BYTES = 32;
/** A text secret's characters: at least this many different ones among its 32+. */
const MIN_DISTINCT_CHARACTERS = 16;
/** Shannon entropy per byte below which it is no random value. */
const MIN_BITS_PER_BYTE = 3.5;
const MIN_DEVELOPMENT_SECRET = 16;

/** The pepper used when none is set: refused in production. */
export const DEVELOPMENT_PEPPER = 'development-only-pepper-change-me';

/** Values shipped in examples and docs: a production start with one of them is refused. */
const PLACEHOLDERS = new Set([DEVELOPMENT_PEPPER, 'change-me-to-a-long-random-value']);
/** Words no random value holds, which placeholders and examples do. */
const PLACEHOLDER_WORDS = /change[-_ ]?me|replace[-_ ]?me|placeholder|^<.*>$/i;

/** A secret setting as the service keys with it. */
export interface SecretSetting {
  /** The variable, and for a list its entry (`PATIENT_DATA_KEYS: key k1`). */
  name: string;
  value: string | undefined;
  /** The decoded bytes keyed with (a base64 data key); absent, the value's UTF-8 bytes. */
  bytes?: Buffer;
}

/** Every problem of `secrets` (ConfigError lines). */
export function secretProblems(secrets: readonly SecretSetting[], nodeEnv: string): string[] {
  if (nodeEnv !== 'production') {
    return secrets
      .filter((s) => !s.bytes && s.value !== undefined && s.value.length < MIN_DEVELOPMENT_SECRET)
      .map((s) => `${s.name}: must be at least ${MIN_DEVELOPMENT_SECRET} characters`);
  }
  const problems: string[] = [];
  const set = secrets.filter((s): s is SecretSetting & { value: string } => s.value !== undefined);
  for (const s of secrets)
    if (s.value === undefined) problems.push(`${s.name}: is required when NODE_ENV=production`);
  for (const s of set) {
    const weak = weakness(s);
    if (weak)
      problems.push(`${s.name}: must be ${requirement(s)} when NODE_ENV=production (${weak})`);
  }
  for (const [i, a] of set.entries())
    for (const b of set.slice(i + 1))
      if (sameSecret(a, b))
        problems.push(
          `${a.name} and ${b.name}: must differ when NODE_ENV=production (each secret keys something else)`,
        );
  return problems;
}

const requirement = (s: SecretSetting) =>
  s.bytes
    ? `${MIN_SECRET_BYTES} random bytes, not a placeholder,`
    : `at least ${MIN_SECRET_BYTES} random characters (${MIN_DISTINCT_CHARACTERS} distinct at least), not a documented placeholder,`;

/** Why the secret is too weak for production, or null. */
export function weakness(s: SecretSetting & { value: string }): string | null {
  const trimmed = s.value.trim();
  if (PLACEHOLDERS.has(trimmed.toLowerCase()) || PLACEHOLDER_WORDS.test(trimmed))
    return 'it is a documented placeholder';
  const bytes = measured(s);
  if (bytes.length < MIN_SECRET_BYTES)
    return `it holds ${bytes.length} bytes${isHexText(s) ? ' (written in hex)' : ''}, under ${MIN_SECRET_BYTES}`;
  if (!s.bytes && !isHexText(s) && new Set(s.value).size < MIN_DISTINCT_CHARACTERS)
    return `it has fewer than ${MIN_DISTINCT_CHARACTERS} distinct characters`;
  const period = shortestPeriod(bytes);
  if (period !== null) return `it repeats a pattern of ${period} bytes`;
  const bits = bitsPerByte(bytes);
  if (bits < MIN_BITS_PER_BYTE)
    return `its bytes have ${bits.toFixed(2)} bits of entropy each, under ${MIN_BITS_PER_BYTE}`;
  return null;
}

/** The bytes judged: the decoded key, the bytes a hex text spells, else the UTF-8 bytes. */
function measured(s: SecretSetting & { value: string }): Buffer {
  if (s.bytes) return s.bytes;
  return isHexText(s) ? Buffer.from(s.value, 'hex') : Buffer.from(s.value, 'utf8');
}

const isHexText = (s: SecretSetting) =>
  !s.bytes && s.value !== undefined && /^(?:[0-9a-fA-F]{2})+$/.test(s.value);

/** The shortest p ≤ half the length with bytes[i] = bytes[i + p] throughout, or null. */
export function shortestPeriod(bytes: Uint8Array): number | null {
  for (let p = 1; p <= bytes.length / 2; p++) {
    let repeats = true;
    for (let i = 0; i + p < bytes.length && repeats; i++) repeats = bytes[i] === bytes[i + p];
    if (repeats) return p;
  }
  return null;
}

/** Shannon entropy of the byte values' frequencies, in bits per byte. */
export function bitsPerByte(bytes: Uint8Array): number {
  const counts = new Map<number, number>();
  for (const b of bytes) counts.set(b, (counts.get(b) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / bytes.length) * Math.log2(n / bytes.length);
  return bits;
}

/** Whether two secrets are one value: as written (trimmed), as keyed with, or as judged. */
function sameSecret(a: SecretSetting & { value: string }, b: SecretSetting & { value: string }) {
  const forms = (s: SecretSetting & { value: string }) => [
    `text:${s.value.trim()}`,
    `bytes:${(s.bytes ?? Buffer.from(s.value.trim(), 'utf8')).toString('hex')}`,
    `bytes:${measured(s).toString('hex')}`,
  ];
  const theirs = new Set(forms(b));
  return forms(a).some((f) => theirs.has(f));
}
