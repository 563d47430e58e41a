/**
 * The bare baseline: plain node:http around baseline-core.ts (the service's SQL for
 * POST /v1/recetas/registrar and GET /v1/recetas/listar on a plain `pg` pool, with the
 * service's response shapes). It is what the service would cost with no framework at all, so
 * service/baseline is the framework's price.
 * Skipped (documented in BENCHMARKS.md): authentication (the client id arrives in the
 * X-Bench-Client header), scopes, rate limiting, request ids, request logging and metrics, the
 * JSON-only and body-size rules, DTO validation and unknown-field checks, CUIR parsing, the
 * REFEPS enablement check (a cache hit in the service), Express/Nest routing, guards,
 * interceptors, the error envelope and TypeORM's query runner. The Idempotency-Key's request
 * hash is the service's own (method, path, canonical body).
 *
 * Env: those of baseline-core.ts, and PORT.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Answer, failure, list, pool, register } from './baseline-core.js';
import type { RegistroRequest } from '../src/recetas/registro/registro.sql.js';

function send(res: ServerResponse, { status, body }: Answer): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const client = req.headers['x-bench-client'];
  if (url.pathname === '/health/ready') return send(res, { status: 200, body: { status: 'ok' } });
  if (typeof client !== 'string') return send(res, failure(401, 'UNAUTHENTICATED'));
  if (req.method === 'POST' && url.pathname === '/v1/recetas/registrar') {
    const dto = JSON.parse(await readBody(req)) as RegistroRequest;
    return send(res, await register(client, dto, url.pathname, req.headers['idempotency-key']));
  }
  if (req.method === 'GET' && url.pathname === '/v1/recetas/listar')
    return send(res, await list(client, (name) => url.searchParams.get(name) ?? undefined));
  return send(res, failure(404, 'NOT_FOUND'));
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    process.stderr.write(`baseline: ${err instanceof Error ? err.message : String(err)}\n`);
    if (!res.headersSent) send(res, failure(500, 'INTERNAL'));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`baseline listening on http://127.0.0.1:${port}\n`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
