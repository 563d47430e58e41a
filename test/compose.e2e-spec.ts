import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';

interface Compose {
  services: Record<string, { ports?: unknown[]; environment?: Record<string, string> }>;
}

/** The compose file as an operator would run it (no Docker engine here: its content is checked). */
const compose = load(readFileSync('docker-compose.yml', 'utf8')) as Compose;

describe('docker-compose.yml', () => {
  it('publishes only the API: the sandbox and the database are reachable inside the network alone', () => {
    const published = Object.entries(compose.services)
      .filter(([, s]) => (s.ports ?? []).length > 0)
      .map(([name]) => name);
    expect(published).toEqual(['api']);
  });

  it('runs the API in production with every external system named and no committed pepper', () => {
    const env = compose.services.api.environment ?? {};
    expect(env.NODE_ENV).toBe('production');
    for (const name of [
      'DATABASE_URL',
      'REFEPS_BASE_URL',
      'RENAPER_BASE_URL',
      'CATALOGO_BASE_URL',
      'MINISTERIO_BASE_URL',
    ])
      expect(env[name]).toMatch(/^(postgres|https?):\/\//);
    // Interpolated from the operator's environment, and compose refuses to start without it.
    expect(env.API_SECRET_PEPPER).toMatch(/^\$\{API_SECRET_PEPPER:\?/);
    expect(env.VERIFICACION_PUBLICA_CLAVE).toMatch(/^\$\{VERIFICACION_PUBLICA_CLAVE:\?/);
  });

  it('runs the service as a role of its own, the migrations as the owner (SPEC 11.1)', () => {
    const env = compose.services.api.environment ?? {};
    const user = (url: string) => new URL(url).username;
    expect(user(env.DATABASE_MIGRATION_URL)).toBe('registry');
    expect(user(env.DATABASE_URL)).toBe('registry_app');
    expect(readFileSync('ops/compose/roles.sql', 'utf8')).toMatch(
      /CREATE ROLE registry_app LOGIN .*NOSUPERUSER/,
    );
  });
});
