import { randomBytes } from 'node:crypto';
import {
  bitsPerByte,
  DEVELOPMENT_PEPPER,
  secretProblems,
  shortestPeriod,
  type SecretSetting,
} from './production-secret.js';

const PEPPER = 'p3pp3r-that-is-long-enough-and-random-xyz';
const text = (name: string, value: string | undefined): SecretSetting => ({ name, value });
const key = (kid: string, bytes: Buffer): SecretSetting => ({
  name: `PATIENT_DATA_KEYS: key ${kid}`,
  value: bytes.toString('base64'),
  bytes,
});
const inProduction = (...secrets: SecretSetting[]) => secretProblems(secrets, 'production');
const one = (s: SecretSetting) => {
  const found = inProduction(s);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('secretProblems (SPEC 11.9): strong and distinct production secrets', () => {
  it('accepts what the docs tell an operator to generate, every time', () => {
    for (let i = 0; i < 300; i++) {
      expect(
        inProduction(
          text('API_SECRET_PEPPER', randomBytes(48).toString('base64')),
          text('VERIFICACION_PUBLICA_CLAVE', randomBytes(24).toString('base64')),
          text('HEX', randomBytes(32).toString('hex')),
          text('URLSAFE', randomBytes(32).toString('base64url')),
          key('k1', randomBytes(32)),
          key('k0', randomBytes(32)),
        ),
      ).toEqual([]);
    }
    expect(inProduction(text('API_SECRET_PEPPER', PEPPER))).toEqual([]);
  });

  it('an unset one is required', () => {
    expect(inProduction(text('API_SECRET_PEPPER', undefined))).toEqual([
      'API_SECRET_PEPPER: is required when NODE_ENV=production',
    ]);
  });

  it('refuses short ones, counting a hex text by the bytes it spells', () => {
    expect(one(text('API_SECRET_PEPPER', 'Zq7!x9Lm'.repeat(3) + 'abcd'))).toMatch(
      /^API_SECRET_PEPPER: must be at least 32 random characters .*\(it holds 28 bytes, under 32\)$/,
    );
    expect(one(text('API_SECRET_PEPPER', 'a'.repeat(32)))).toMatch(
      /holds 16 bytes \(written in hex\)/,
    );
    expect(one(text('X', randomBytes(16).toString('hex')))).toMatch(/holds 16 bytes/);
    expect(one(key('k1', randomBytes(16)))).toMatch(
      /^PATIENT_DATA_KEYS: key k1: must be 32 random bytes, not a placeholder, when NODE_ENV=production \(it holds 16 bytes/,
    );
  });

  it('refuses a documented placeholder, after trimming and whatever the case', () => {
    for (const value of [
      'change-me-to-a-long-random-value',
      'change-me-to-a-long-random-value ',
      ' CHANGE-ME-TO-A-LONG-RANDOM-VALUE',
      DEVELOPMENT_PEPPER,
      'please-changeme-0123456789abcdefghijkl',
      '<32 random characters from openssl rand>',
    ])
      expect(one(text('VERIFICACION_PUBLICA_CLAVE', value))).toMatch(
        /^VERIFICACION_PUBLICA_CLAVE: must be .*\(it is a documented placeholder\)$/,
      );
  });

  it('refuses a text of fewer than 16 distinct characters', () => {
    expect(one(text('API_SECRET_PEPPER', 'k'.repeat(24) + 'Zq7!x9Lm'))).toMatch(
      /fewer than 16 distinct characters/,
    );
  });

  it('refuses bytes that repeat a pattern, however long', () => {
    const pattern = (n: number) =>
      Buffer.from(Array.from({ length: 32 }, (_, i) => (i % n) * 37 + 1));
    expect(one(key('k1', pattern(4)))).toMatch(/repeats a pattern of 4 bytes/);
    expect(one(key('k1', pattern(16)))).toMatch(/repeats a pattern of 16 bytes/);
    expect(one(key('k1', Buffer.alloc(32)))).toMatch(/repeats a pattern of 1 bytes/);
    expect(one(text('API_SECRET_PEPPER', 'abcdefghijklmnopqrst'.repeat(2)))).toMatch(
      /repeats a pattern of 20 bytes/,
    );
    expect(one(text('HEX', 'deadbeef'.repeat(8)))).toMatch(/repeats a pattern of 4 bytes/);
  });

  it('refuses bytes of low entropy (under 3.5 bits per byte)', () => {
    // 32 bytes, no period, but mostly one value.
    const lopsided = Buffer.from([...Array(24).fill(7), 1, 2, 3, 4, 5, 6, 8, 9]);
    expect(one(key('k1', lopsided))).toMatch(/bits of entropy each, under 3.5/);
    // 16 distinct characters, but one of them 61 times in 76.
    const padded = 'a'.repeat(61) + 'bcdefghijklmnop!';
    expect(one(text('API_SECRET_PEPPER', padded))).toMatch(/bits of entropy each/);
  });

  it('refuses two secrets that are one value: as written, trimmed, or as keyed with', () => {
    expect(
      inProduction(text('API_SECRET_PEPPER', PEPPER), text('VERIFICACION_PUBLICA_CLAVE', PEPPER)),
    ).toEqual([
      'API_SECRET_PEPPER and VERIFICACION_PUBLICA_CLAVE: must differ when NODE_ENV=production (each secret keys something else)',
    ]);
    expect(
      inProduction(text('A', PEPPER), text('B', ` ${PEPPER} `)).filter((p) => /differ/.test(p)),
    ).toHaveLength(1);
    const bytes = randomBytes(32);
    expect(inProduction(key('k1', bytes), key('k0', Buffer.from(bytes)))).toEqual([
      expect.stringMatching(
        /^PATIENT_DATA_KEYS: key k1 and PATIENT_DATA_KEYS: key k0: must differ/,
      ),
    ]);
    // A data key whose bytes are the pepper's, and a hex text spelling a data key.
    const asText = Buffer.from(PEPPER.slice(0, 32), 'utf8');
    expect(inProduction(text('P', PEPPER.slice(0, 32)), key('k1', asText))).toEqual([
      expect.stringMatching(/^P and PATIENT_DATA_KEYS: key k1: must differ/),
    ]);
    expect(inProduction(text('H', bytes.toString('hex')), key('k1', bytes))).toEqual([
      expect.stringMatching(/^H and PATIENT_DATA_KEYS: key k1: must differ/),
    ]);
  });

  it('never writes a value into a problem', () => {
    const secrets = [
      text('A', 'change-me-to-a-long-random-value'),
      text('B', 'k'.repeat(40)),
      text('C', 'k'.repeat(40)),
    ];
    for (const line of inProduction(...secrets))
      for (const s of secrets) expect(line).not.toContain(s.value as string);
  });

  it('outside production: only a text secret set shorter than 16 characters', () => {
    expect(
      secretProblems(
        [text('A', undefined), text('B', 'a'.repeat(16)), key('k1', Buffer.alloc(32))],
        'development',
      ),
    ).toEqual([]);
    expect(secretProblems([text('A', 'short')], 'test')).toEqual([
      'A: must be at least 16 characters',
    ]);
  });
});

describe('the measures', () => {
  it('shortestPeriod: the shortest repetition up to half the length, else null', () => {
    expect(shortestPeriod(Buffer.from('abababab'))).toBe(2);
    expect(shortestPeriod(Buffer.from('abcabcab'))).toBe(3);
    expect(shortestPeriod(Buffer.from('abcdabce'))).toBeNull();
    expect(shortestPeriod(Buffer.from('aaab'))).toBeNull();
  });

  it('bitsPerByte: 0 for one value, 5 for 32 distinct, 8 for all 256', () => {
    expect(bitsPerByte(Buffer.alloc(32))).toBe(0);
    expect(bitsPerByte(Buffer.from(Array.from({ length: 32 }, (_, i) => i)))).toBe(5);
    expect(bitsPerByte(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))).toBe(8);
  });
});
