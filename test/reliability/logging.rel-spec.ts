import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { createRootLogger, scrubUrl } from '../../src/common/logging/logger.js';
import { LogGuard } from './support/log-guard.js';
import { sleep } from './support/raw-http.js';
import { startWatchedApp } from './support/setup.js';

/**
 * The logger's own guarantees, for what the suites cannot provoke through the API any more
 * (their inputs are refused before SQL): a failed statement's error is logged with its stack
 * but without the values it was run with.
 */
describe('logging', () => {
  const lines: string[] = [];
  const logger = createRootLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
  const guard = new LogGuard();
  guard.watch('logger', () => lines.join(''));

  it('a QueryFailedError is logged without its parameters or the values PostgreSQL quotes', () => {
    const pgError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      constraint: 'recetas_cuir',
      table: 'recetas',
      detail: 'Key (documento_paciente)=(30111222) already exists.',
      where: 'JSON data, line 1: {"nombre": "ANA MARÍA FERNÁNDEZ"',
    });
    const err = new QueryFailedError(
      'INSERT INTO recetas (documento_paciente, locacion) VALUES ($1, $2)',
      ['30111222', 'LAURA GÓMEZ'],
      pgError,
    );
    // As the exception filter logs a 500.
    logger.error({ err, request_id: 'r1', code: 'INTERNAL' }, 'request error');
    const [line] = lines.map((l) => JSON.parse(l) as { err: Record<string, unknown> });
    expect(line.err.type).toBe('QueryFailedError');
    expect(line.err.stack).toEqual(expect.any(String));
    expect(line.err.driverError).toMatchObject({ code: '23505', constraint: 'recetas_cuir' });
    expect(guard.findings()).toEqual([]);
  });

  it.each([
    ['/v1/recetas/30111222', '/v1/recetas/[REDACTED]'],
    ['/v1/recetas/LAURA', '/v1/recetas/[REDACTED]'],
    ['/v1/recetas/1042', '/v1/recetas/1042'],
    ['/v1/anything?documento=30111222', '/v1/anything?documento=[REDACTED]'],
    [
      '/v1/recetas/listar?fecha_desde=2026-01-01T00:00:00Z&estado=PENDING&30111222=1&page=2',
      '/v1/recetas/listar?fecha_desde=2026-01-01T00:00:00Z&estado=PENDING&[REDACTED]=[REDACTED]&page=2',
    ],
    ['/v1/medicamentos/buscar?q=G%C3%93MEZ', '/v1/medicamentos/buscar?q=[REDACTED]'],
    ['/v1/recetas/listar?page=30.111.222', '/v1/recetas/listar?page=[REDACTED]'],
    // What identifies a person or opens a door stays out, wherever it is sent: a CUIL (with or
    // without dashes), a CUIR, an API key or secret, a token, a link's signature, a name.
    ['/v1/recetas/20301112225', '/v1/recetas/[REDACTED]'],
    ['/v1/recetas/20-30111222-5', '/v1/recetas/[REDACTED]'],
    [`/r/${'0'.repeat(34)}1234501`, '/r/[REDACTED]'],
    [`/r/${'0'.repeat(34)}1234501?f=q1w2e3r4t5y6u7i8o9p0aZ`, '/r/[REDACTED]?f=[REDACTED]'],
    ['/v1/x/rk_-W1XuY5jwtDFJH1ZxzOlkg', '/v1/x/[REDACTED]'],
    ['/v1/x/a3f9c2e1b7d84f06a3f9c2e1b7d84f06', '/v1/x/[REDACTED]'],
    ['/v1/x/eyJhbGciOiJSUzI1NiJ9.eyJjdWlsIjoiMjAifQ.c2ln', '/v1/x/[REDACTED]'],
    ['/v1/x?token=abc&cuil=20301112225', '/v1/x?token=[REDACTED]&cuil=[REDACTED]'],
    ['/v1/x?nombre=laura&documento=123456', '/v1/x?nombre=[REDACTED]&documento=[REDACTED]'],
    ['/v1/x?apodo=LAURA', '/v1/x?apodo=[REDACTED]'],
    // What identifies nobody is logged as sent: the document, the docs' assets, a code, a page,
    // an id, a UUID.
    ['/openapi.json', '/openapi.json'],
    ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui-bundle.js'],
    ['/docs/favicon-32x32.png', '/docs/favicon-32x32.png'],
    [
      '/v1/fiscalizacion/recetas?subtipo=04&page=1&per_page=50',
      '/v1/fiscalizacion/recetas?subtipo=04&page=1&per_page=50',
    ],
    ['/v1/recetas/listar?as_of=1042', '/v1/recetas/listar?as_of=1042'],
    [
      '/v1/dispensas/reservas/7f4bc722-9ade-48ea-b8ea-b05412437774',
      '/v1/dispensas/reservas/7f4bc722-9ade-48ea-b8ea-b05412437774',
    ],
  ])('scrubUrl(%s) → %s', (url, logged) => {
    expect(scrubUrl(url)).toBe(logged);
  });

  it("a running app's access lines: the document, the docs' assets and a subtype as sent, each with its route", async () => {
    const t = await startWatchedApp(guard, 'app');
    try {
      const paths = [
        '/openapi.json',
        '/docs/swagger-ui.css',
        '/v1/fiscalizacion/recetas?subtipo=04',
        '/v1/recetas/30111222',
      ];
      for (const path of paths) await fetch(`${t.url}${path}`).then((r) => r.arrayBuffer());
      await sleep(100); // the access line is written when the answer has finished
      const access = (path: string) =>
        t.logs.find((l) => l.component === 'http' && l.url === path) as
          { route: string; status: number } | undefined;
      expect(access('/openapi.json')).toMatchObject({ route: '/openapi.json', status: 200 });
      expect(access('/docs/swagger-ui.css')).toMatchObject({ route: '/docs/*', status: 200 });
      expect(access('/v1/fiscalizacion/recetas?subtipo=04')).toMatchObject({
        route: '/v1/fiscalizacion/recetas',
        status: 401,
      });
      expect(access('/v1/recetas/[REDACTED]')).toMatchObject({
        route: '/v1/recetas/:id_transaccion',
      });
    } finally {
      await t.stop();
    }
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });

  it('the guard itself finds a document as a token, and not the same digits inside a UUID', () => {
    const planted = new LogGuard();
    let text = '{"request_id":"7f4bc722-9ade-48ea-b8ea-b05412437774","documento":"x"}';
    planted.watch('planted', () => text);
    expect(planted.findings()).toEqual([]);
    text = '{"documento":"41243777"} GET /v1/recetas/listar?documento=30111222';
    expect(planted.findings().map((f) => f.split(' in ')[0])).toEqual([
      'planted: document 30111222',
      'planted: fuzzed document 41243777',
    ]);
  });
});
