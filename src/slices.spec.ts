import { configProblems } from '../test/support/config-problems.js';
import { readFileSync } from 'node:fs';
import { authSettings } from './auth/auth.settings.js';
import {
  ConfigError,
  migrationUrl,
  needsSandbox,
  withDatabase,
  withSandbox,
} from './config/app-config.js';
import { cuirSettings } from './cuir/cuir.settings.js';
import { medicamentosSettings } from './medicamentos/medicamentos.settings.js';
import { recetasSettings } from './recetas/recetas.settings.js';
import { loadAppConfig as loadConfig } from './slices.js';

describe('loading the configuration (core and every module)', () => {
  it('defaults everything with an empty environment (embedded database, sandbox)', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(3000);
    expect(c.sandbox.port).toBe(4010);
    expect(c.database.url).toBeUndefined();
    expect(c.resilience.timeoutMs).toBe(3000);
    expect(c.settings(recetasSettings).notification).toMatchObject({
      retryDelaySeconds: 30,
      maxAttempts: 10,
    });
    expect(c.settings(medicamentosSettings).insurerName).toBe('pami');
    expect(c.settings(authSettings).demoClient).toBe(true);
    // Nothing to warn about once the bootstrap has started the sandbox it needs.
    expect(withSandbox(c, 'http://127.0.0.1:1').warnings).toEqual([]);
    expect(needsSandbox(c)).toBe(true);
    expect(needsSandbox(withSandbox(c, 'http://127.0.0.1:1'))).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['CUIR_PLATFORM_ID', '12a4'],
    ['CUIR_REPOSITORY_ID', '123'],
    ['REGISTRY_TIMEOUT_MS', '-1'],
    ['MINISTRY_MAX_ATTEMPTS', '0'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_MIGRATION_URL', 'mysql://x'],
    ['REFEPS_BASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['INSURER_NAME', 'Bad Name'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'loopback, proxy.example'],
    ['TRUST_PROXY', '-1'],
  ])('refuses %s=%s, naming the setting', (name, value) => {
    let err: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems.some((p) => p.startsWith(`${name}:`))).toBe(true);
  });

  it('accepts every line of .env.example as it stands (empty values are unset)', () => {
    const lines = readFileSync('.env.example', 'utf8')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l));
    const env = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(Object.keys(env).length).toBeGreaterThan(40);
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('parses numbers, booleans and URLs', () => {
    const c = loadConfig({
      PORT: '8080',
      DEMO_CLIENT: 'off',
      REFEPS_BASE_URL: 'http://localhost:4010',
      CUIR_PLATFORM_ID: '0042',
    });
    expect(c.http.port).toBe(8080);
    expect(c.settings(authSettings).demoClient).toBe(false);
    expect(c.upstreams.refepsBaseUrl).toBe('http://localhost:4010');
    expect(c.settings(cuirSettings).platformId).toBe('0042');
  });

  it.each<[string | undefined, false | number | string[]]>([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7, fd00::/8', ['10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
  ])('TRUST_PROXY=%p is Express trust proxy %p', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).http.trustProxy).toEqual(
      expected,
    );
  });

  it('keeps module settings when the bootstrap fills in the database and the sandbox', () => {
    const c = withSandbox(
      withDatabase(loadConfig({ DEMO_CLIENT: 'off' }), { url: 'postgres://x/y', poolSize: 1 }),
      'http://127.0.0.1:9',
    );
    expect(c.database).toMatchObject({ url: 'postgres://x/y', poolSize: 1, isEmbedded: true });
    expect(c.upstreams.ministerioBaseUrl).toBe('http://127.0.0.1:9');
    expect(c.settings(authSettings).demoClient).toBe(false);
    expect(c.warnings).toEqual([]);
  });

  it('warns when a real database would be used with the development pepper', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://db/registry' });
    expect(c.warnings.join('\n')).toMatch(/API_SECRET_PEPPER is not set/);
  });

  it('migrates as DATABASE_MIGRATION_URL when set, else as DATABASE_URL', () => {
    const one = loadConfig({ DATABASE_URL: 'postgres://app@db/registry' });
    expect(migrationUrl(one)).toBe('postgres://app@db/registry');
    const two = loadConfig({
      DATABASE_URL: 'postgres://app@db/registry',
      DATABASE_MIGRATION_URL: 'postgres://owner@db/registry',
    });
    expect(migrationUrl(two)).toBe('postgres://owner@db/registry');
    expect(two.database.url).toBe('postgres://app@db/registry');
  });

  it('refuses DATABASE_MIGRATION_URL without DATABASE_URL (the embedded server has one role)', () => {
    expect(() => loadConfig({ DATABASE_MIGRATION_URL: 'postgres://owner@db/registry' })).toThrow(
      /DATABASE_MIGRATION_URL: needs DATABASE_URL/,
    );
  });
});

describe('production', () => {
  const complete: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://db/registry',
    REFEPS_BASE_URL: 'https://refeps.example',
    RENAPER_BASE_URL: 'https://renaper.example',
    CATALOGO_BASE_URL: 'https://catalogo.example',
    MINISTERIO_BASE_URL: 'https://ministerio.example',
    PACIENTE_JWKS_URL: 'https://mi.argentina.example/.well-known/jwks.json',
    PACIENTE_JWT_ISSUER: 'https://mi.argentina.example',
    PACIENTE_JWT_AUDIENCE: 'recetas',
    API_SECRET_PEPPER: 'p3pp3r-that-is-long-enough-and-random-xyz',
    VERIFICACION_PUBLICA_CLAVE: 'qr-link-key-that-is-long-enough-and-random',
    PATIENT_DATA_KEYS: 'k1:YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=',
  };
  const problems = configProblems;

  it('starts with every external system, the database and a long pepper set', () => {
    expect(problems(complete)).toEqual([]);
  });

  it('warns while the service connects as the owner of its tables (DATABASE_MIGRATION_URL unset)', () => {
    expect(loadConfig(complete).warnings).toEqual([
      expect.stringMatching(/^DATABASE_MIGRATION_URL is not set: /),
    ]);
    const twoRoles = { ...complete, DATABASE_MIGRATION_URL: 'postgres://owner@db/registry' };
    expect(loadConfig(twoRoles).warnings).toEqual([]);
  });

  it.each([
    'DATABASE_URL',
    'REFEPS_BASE_URL',
    'RENAPER_BASE_URL',
    'CATALOGO_BASE_URL',
    'MINISTERIO_BASE_URL',
    'PACIENTE_JWKS_URL',
    'PACIENTE_JWT_ISSUER',
    'PACIENTE_JWT_AUDIENCE',
  ])('refuses to fall back to an emulator or the embedded database: %s unset', (name) => {
    const { [name]: _unset, ...env } = complete;
    expect(problems(env)).toEqual([expect.stringMatching(new RegExp(`^${name}: is required`))]);
  });

  it.each([
    ['short', 'x'.repeat(31)],
    ['the compose placeholder', 'change-me-to-a-long-random-value'],
    ['the development pepper', 'development-only-pepper-change-me'],
  ])('refuses a %s pepper, naming API_SECRET_PEPPER', (_what, pepper) => {
    expect(problems({ ...complete, API_SECRET_PEPPER: pepper })).toEqual([
      expect.stringMatching(/^API_SECRET_PEPPER: /),
    ]);
  });

  it.each([
    ['missing', undefined],
    ['short', 'x'.repeat(31)],
    ['the compose placeholder', 'change-me-to-a-long-random-value'],
  ])('refuses a %s key of the QR links, naming VERIFICACION_PUBLICA_CLAVE', (_what, clave) => {
    const { VERIFICACION_PUBLICA_CLAVE: _set, ...env } = complete;
    expect(
      problems(clave === undefined ? env : { ...env, VERIFICACION_PUBLICA_CLAVE: clave }),
    ).toEqual([expect.stringMatching(/^VERIFICACION_PUBLICA_CLAVE: /)]);
  });

  it.each([
    ['missing', undefined, /^PATIENT_DATA_KEYS: is required/],
    ['a short key', 'k1:' + Buffer.alloc(16, 3).toString('base64'), /must be 32 random bytes/],
    ['a placeholder key', 'k1:' + Buffer.alloc(32).toString('base64'), /not a placeholder/],
    ['not kid:key', Buffer.alloc(32, 3).toString('base64'), /must be <key id>:<base64 key>/],
    [
      'a key id twice',
      'k1:YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=,k1:YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=',
      /listed twice/,
    ],
  ])('refuses %s in PATIENT_DATA_KEYS, naming it', (_what, keys, message) => {
    const { PATIENT_DATA_KEYS: _set, ...env } = complete;
    const found = problems(keys === undefined ? env : { ...env, PATIENT_DATA_KEYS: keys });
    expect(found).toEqual([expect.stringMatching(/^PATIENT_DATA_KEYS: /)]);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ['a pepper of 32 x "a"', { API_SECRET_PEPPER: 'a'.repeat(32) }, /^API_SECRET_PEPPER: /],
    [
      'a placeholder with a trailing space',
      { VERIFICACION_PUBLICA_CLAVE: 'change-me-to-a-long-random-value ' },
      /^VERIFICACION_PUBLICA_CLAVE: .*documented placeholder/,
    ],
    [
      'a data key of repeating bytes',
      {
        PATIENT_DATA_KEYS:
          'k1:' + Buffer.from(Array.from({ length: 32 }, (_, i) => i % 4)).toString('base64'),
      },
      /^PATIENT_DATA_KEYS: key k1: .*repeats a pattern/,
    ],
    [
      'the link key equal to the pepper',
      { VERIFICACION_PUBLICA_CLAVE: 'p3pp3r-that-is-long-enough-and-random-xyz' },
      /^API_SECRET_PEPPER and VERIFICACION_PUBLICA_CLAVE: must differ/,
    ],
    [
      'two data keys alike',
      {
        PATIENT_DATA_KEYS:
          'k2:YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=,k1:YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=',
      },
      /^PATIENT_DATA_KEYS: key k2 and PATIENT_DATA_KEYS: key k1: must differ/,
    ],
  ])('refuses %s (SPEC 11.9), naming it', (_what, over, message) => {
    expect(problems({ ...complete, ...over })).toEqual([expect.stringMatching(message)]);
  });

  it('accepts several data keys (the first seals)', () => {
    const k2 = `k2:${Buffer.from('another key of 32 random bytes!!').toString('base64')}`;
    expect(
      problems({ ...complete, PATIENT_DATA_KEYS: `${k2},${complete.PATIENT_DATA_KEYS}` }),
    ).toEqual([]);
  });
});
