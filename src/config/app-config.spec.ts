import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, needsSandbox, withSandbox } from './app-config.js';

describe('loadConfig', () => {
  it('defaults everything with an empty environment (embedded database, sandbox)', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(3000);
    expect(c.sandbox.port).toBe(4010);
    expect(c.database.url).toBeUndefined();
    expect(c.registries.timeoutMs).toBe(3000);
    expect(c.ministry).toMatchObject({ retryDelaySeconds: 30, maxAttempts: 10 });
    expect(c.insurerName).toBe('pami');
    expect(c.demoClient).toBe(true);
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
    ['REFEPS_BASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['INSURER_NAME', 'Bad Name'],
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
    expect(c.demoClient).toBe(false);
    expect(c.registries.refepsBaseUrl).toBe('http://localhost:4010');
    expect(c.cuir.platformId).toBe('0042');
  });
});
