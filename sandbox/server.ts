/**
 * The sandbox: one plain node:http server emulating SISA REFEPS, SISA RENAPER, the medication
 * catalogue and the ministry's pointer endpoint, with switchable faults (see faults.ts) and a
 * control API (see control.ts), plus Mi Argentina's token issuer (see mi-argentina.ts). The service and its tests start it in-process on a random port;
 * main.ts runs it alone.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallCounter } from './calls.js';
import { CatalogoStore, createCatalogo } from './catalogo.js';
import { controlRoutes, type ControlRoute, type SandboxState } from './control.js';
import { FaultBoard, type FaultSetting, type InjectedMode } from './faults.js';
import {
  BodyTooLargeError,
  jsonError,
  notFound,
  readBody,
  type Reply,
  type SandboxRequest,
} from './http.js';
import { MiArgentinaIssuer } from './mi-argentina.js';
import { MinisterioState, createMinisterio } from './ministerio.js';
import { createRefeps } from './refeps.js';
import { createRenaper } from './renaper.js';
import { WebhookReceivers } from './webhooks.js';
import type { EmulatedSystem, Route } from './system.js';
import { MEDICAMENTOS } from './fixtures/medicamentos.js';
import { syntheticCatalog } from './fixtures/synthetic-catalog.js';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Catalogue size: the real fixture, then synthetic items (default: the fixture only). */
  catalogSize?: number;
  sisaUser?: string;
  sisaPassword?: string;
  ministryClientId?: string;
  ministryClientSecret?: string;
  /** Lifetime of ministry tokens (default 300 s); short values let tests exercise expiry. */
  ministryTokenTtlSeconds?: number;
  /** No request log on stdout. */
  quiet?: boolean;
}

export interface RunningSandbox {
  url: string;
  port: number;
  /** Stops listening and drops every connection, held ones included. Safe to call twice. */
  close(): Promise<void>;
}

interface Entry {
  route: Route | ControlRoute;
  system?: EmulatedSystem;
}

const INJECTED: readonly string[] = ['quota', 'auth', 'reject'] satisfies InjectedMode[];

function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return;
  const body = reply.body ?? '';
  res.writeHead(reply.status, { ...reply.headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function urlFor(host: string, port: number): string {
  // A wildcard address is not something a client can dial; point at loopback instead.
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? '127.0.0.1';
  const sisa = { usuario: opts.sisaUser ?? 'sandbox', clave: opts.sisaPassword ?? 'sandbox' };
  const ministryCreds = {
    clientId: opts.ministryClientId ?? 'sandbox',
    clientSecret: opts.ministryClientSecret ?? 'sandbox',
    tokenTtlSeconds: opts.ministryTokenTtlSeconds ?? 300,
  };
  const catalogo = new CatalogoStore(
    opts.catalogSize === undefined ? MEDICAMENTOS : syntheticCatalog(opts.catalogSize),
  );
  const ministerio = new MinisterioState(ministryCreds);
  const faults = new FaultBoard();
  const calls = new CallCounter();
  const systems = [
    createRefeps(sisa),
    createRenaper(sisa),
    createCatalogo(catalogo),
    createMinisterio(ministerio, ministryCreds),
  ];
  const webhooks = new WebhookReceivers();
  const miArgentina = new MiArgentinaIssuer();
  const state: SandboxState = {
    faults,
    calls,
    catalogo,
    ministerio,
    reset: () => {
      faults.clear();
      calls.reset();
      webhooks.reset();
      for (const system of systems) system.reset();
    },
  };
  const table: Entry[] = [
    ...controlRoutes(state).map((route) => ({ route })),
    ...webhooks.routes().map((route) => ({ route })),
    ...miArgentina.routes().map((route) => ({ route })),
    ...systems.flatMap((system) => system.routes.map((route) => ({ route, system }))),
  ];

  // Responses held by a timeout fault or waiting out a slow one: close() must end them.
  const pending = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const log = (line: string) => {
    if (!opts.quiet) process.stdout.write(`[sandbox] ${line}\n`);
  };

  const track = (res: ServerResponse, timer?: NodeJS.Timeout) => {
    pending.add(res);
    if (timer) timers.add(timer);
    res.once('close', () => {
      pending.delete(res);
      if (timer) {
        clearTimeout(timer);
        timers.delete(timer);
      }
    });
  };

  const emulate = (
    res: ServerResponse,
    req: SandboxRequest,
    route: Route,
    system: EmulatedSystem,
    params: string[],
  ) => {
    calls.count(system.service, `${route.method} ${req.path}`);
    const fault: FaultSetting | undefined =
      route.faultable === false ? undefined : faults.next(system.service);
    if (fault?.mode === 'error') return send(res, system.unavailable());
    const injected =
      fault && INJECTED.includes(fault.mode) ? (fault.mode as InjectedMode) : undefined;
    // The handler runs even under a timeout fault: the ministry stores the pointer, and only
    // the answer is lost, as when a real response times out on the way back.
    const reply = route.handle(req, params, injected);
    if (fault?.mode === 'timeout') {
      log(`${req.method} ${req.path} held (timeout fault)`);
      return track(res);
    }
    if (fault?.mode === 'slow') {
      const timer = setTimeout(() => send(res, reply), fault.delay_ms);
      return track(res, timer);
    }
    send(res, reply);
  };

  const onRequest = async (raw: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    res.once('finish', () =>
      log(`${raw.method} ${raw.url?.split('?')[0]} ${res.statusCode} ${Date.now() - started}ms`),
    );
    let body: string;
    try {
      body = await readBody(raw);
    } catch (err) {
      if (err instanceof BodyTooLargeError)
        send(res, jsonError(413, 'DEMASIADO_GRANDE', 'Body over 1 MB'));
      else res.destroy();
      return;
    }
    const url = new URL(raw.url ?? '/', 'http://sandbox');
    const req: SandboxRequest = {
      method: raw.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: raw.headers,
      body,
    };
    const matching = table
      .map((entry) => ({ entry, match: entry.route.path.exec(req.path) }))
      .filter((m): m is { entry: Entry; match: RegExpExecArray } => m.match !== null);
    if (matching.length === 0) return send(res, notFound(req.path));
    const hit = matching.find((m) => m.entry.route.method === req.method);
    if (!hit) {
      const allow = matching.map((m) => m.entry.route.method).join(', ');
      const reply = jsonError(405, 'METODO_NO_PERMITIDO', `Use ${allow} on ${req.path}`);
      return send(res, { ...reply, headers: { ...reply.headers, allow } });
    }
    const params = hit.match.slice(1);
    try {
      const { route, system } = hit.entry;
      if (system) emulate(res, req, route, system, params);
      else send(res, route.handle(req, params));
    } catch (err) {
      log(`${req.method} ${req.path} failed: ${(err as Error).stack ?? String(err)}`);
      send(res, jsonError(500, 'ERROR_INTERNO', 'Sandbox error'));
    }
  };

  const server = createServer((req, res) => void onRequest(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  miArgentina.listeningAt(urlFor(host, port));

  let closing: Promise<void> | undefined;
  // A closure, not a method: callers may pass `sandbox.close` around unbound.
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const res of pending) res.destroy();
      pending.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    }));

  return { url: urlFor(host, port), port, close };
}
