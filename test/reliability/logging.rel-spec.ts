import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { createRootLogger, scrubUrl } from '../../src/common/logging/logger.js';
import { LogGuard } from './support/log-guard.js';

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
  ])('scrubUrl(%s) → %s', (url, logged) => {
    expect(scrubUrl(url)).toBe(logged);
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
