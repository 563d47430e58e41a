import { spawn, spawnSync } from 'node:child_process';
import { ApiClientsService } from '../src/auth/api-clients.service.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Every setting production needs, set: the start then gets past configuration. */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  REFEPS_BASE_URL: 'https://refeps.example',
  RENAPER_BASE_URL: 'https://renaper.example',
  CATALOGO_BASE_URL: 'https://catalogo.example',
  MINISTERIO_BASE_URL: 'https://ministerio.example',
  PACIENTE_JWKS_URL: 'https://mi.argentina.example/jwks.json',
  PACIENTE_JWT_ISSUER: 'https://mi.argentina.example',
  PACIENTE_JWT_AUDIENCE: 'recetas',
  API_SECRET_PEPPER: 'p3pp3r-that-is-long-enough-and-random-xyz',
  VERIFICACION_PUBLICA_CLAVE: 'qr-link-key-that-is-long-enough-and-random',
  PATIENT_DATA_KEYS: 'k1:YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=',
  LOG_LEVEL: 'silent',
};

/** Starts the built service with `env` (nothing inherited but PATH) and waits for it to exit. */
function start(env: Record<string, string | undefined>) {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
  return spawnSync(process.execPath, ['dist/src/main.js'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...clean },
    timeout: 20_000,
  });
}

describe('production refuses the emulators and the embedded database', () => {
  it.each(['MINISTERIO_BASE_URL', 'DATABASE_URL', 'REFEPS_BASE_URL'])(
    'exits 1 naming %s when it is unset',
    (name) => {
      const run = start({ ...PRODUCTION, [name]: undefined });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Invalid configuration');
      expect(run.stderr).toMatch(new RegExp(`${name}: is required when NODE_ENV=production`));
      // Nothing was started: no sandbox, no embedded database banner.
      expect(run.stdout).not.toMatch(/Sandbox|embedded PostgreSQL/);
    },
  );

  it.each([
    ['shorter than 32 characters', 'too-short-pepper-123'],
    ['the compose placeholder', 'change-me-to-a-long-random-value'],
  ])('exits 1 naming API_SECRET_PEPPER when it is %s', (_what, pepper) => {
    const run = start({ ...PRODUCTION, API_SECRET_PEPPER: pepper });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/API_SECRET_PEPPER: must be at least 32 random characters/);
  });

  it.each([
    ['unset', undefined, /VERIFICACION_PUBLICA_CLAVE: is required when NODE_ENV=production/],
    [
      'the compose placeholder',
      'change-me-to-a-long-random-value',
      /VERIFICACION_PUBLICA_CLAVE: must be at least 32 random characters/,
    ],
    [
      'shorter than 32 characters',
      'short-qr-key-1234',
      /VERIFICACION_PUBLICA_CLAVE: must be at least 32 random characters/,
    ],
  ])("exits 1 naming the QR links' key when it is %s", (_what, clave, message) => {
    const run = start({ ...PRODUCTION, VERIFICACION_PUBLICA_CLAVE: clave });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
  });

  it.each([
    ['unset', undefined, /PATIENT_DATA_KEYS: is required when NODE_ENV=production/],
    [
      'a 16-byte key',
      'k1:' + Buffer.alloc(16, 3).toString('base64'),
      /PATIENT_DATA_KEYS: key k1: must be 32 random bytes in base64/,
    ],
  ])('exits 1 naming the patient data keys when they are %s', (_what, keys, message) => {
    const run = start({ ...PRODUCTION, PATIENT_DATA_KEYS: keys });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
  });

  // SPEC 11.9: what an attack review got accepted, each refused at start naming the variable.
  it.each([
    ['a pepper of 32 x "a"', { API_SECRET_PEPPER: 'a'.repeat(32) }, /API_SECRET_PEPPER: must be/],
    [
      'a placeholder with a trailing space',
      { VERIFICACION_PUBLICA_CLAVE: 'change-me-to-a-long-random-value ' },
      /VERIFICACION_PUBLICA_CLAVE: must be .*documented placeholder/,
    ],
    [
      'a patient key of repeating bytes',
      {
        PATIENT_DATA_KEYS:
          'k1:' + Buffer.from(Array.from({ length: 32 }, (_, i) => i % 4)).toString('base64'),
      },
      /PATIENT_DATA_KEYS: key k1: must be 32 random bytes.*repeats/,
    ],
    [
      'the link key equal to the pepper',
      { VERIFICACION_PUBLICA_CLAVE: PRODUCTION.API_SECRET_PEPPER },
      /API_SECRET_PEPPER and VERIFICACION_PUBLICA_CLAVE: must differ/,
    ],
    [
      'a text pepper of few distinct characters',
      { API_SECRET_PEPPER: 'abcabcabdabcabcabcabcabcabcabcabcabcxyz' },
      /API_SECRET_PEPPER: must be .*16 distinct/,
    ],
  ])('exits 1 naming the secret: %s', (_what, over, message) => {
    const run = start({ ...PRODUCTION, ...over });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toMatch(message);
    // Never the value itself.
    for (const value of Object.values(over)) expect(run.stderr).not.toContain(value.trim());
  });

  it('a development start on a real database warns that the development pepper is in use', async () => {
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        PORT: '0',
        SANDBOX_PORT: '0',
        LOG_FORMAT: 'json',
        CATALOG_SYNC_ON_START: 'false',
        QUEUE_SCHEMA: `pgboss_warn_${process.pid}`,
      },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner:\n${out}`)), 20_000);
        child.stdout.on('data', () => {
          if (out.includes('listening on')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      child.kill('SIGTERM');
    }
    const warning = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .find((l) => l.msg.includes('API_SECRET_PEPPER'));
    expect(warning?.level).toBe('warn');
    expect(warning?.msg).toMatch(/development pepper/);
  });
});

describe('the demo client stays as the operator left it', () => {
  let t: TestApp;
  let clients: ApiClientsService;
  beforeAll(async () => {
    t = await startTestApp();
    clients = t.app.get(ApiClientsService);
  });
  afterAll(() => t?.stop());

  it('keeps narrowed scopes across starts, and is not recreated once revoked', async () => {
    const first = await clients.ensureDemoClient();
    expect(first?.client.scopes.length).toBeGreaterThan(5);
    await clients.update(first!.key, { scopes: ['medicamentos:read'] });
    const again = await clients.ensureDemoClient();
    expect(again?.key).toBe(first!.key);
    expect(again?.client.scopes).toEqual(['medicamentos:read']);
    expect(again?.secret).not.toBe(first!.secret);

    await clients.revoke(first!.key);
    expect(await clients.ensureDemoClient()).toBeNull();
    const demos = (await clients.list()).filter((c) => c.name === 'demo');
    expect(demos).toHaveLength(1);
    expect(demos[0].active).toBe(false);
  });
});
