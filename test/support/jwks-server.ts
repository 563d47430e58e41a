/**
 * A real JWKS endpoint on loopback (node:http, port 0) for the citizen-token tests: serves the
 * keys it is given, counts fetches, and can fail the ways an issuer fails.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';

export type JwksServerMode = 'ok' | 'error' | 'hang' | 'garbage' | 'redirect';

export interface JwksServer {
  url: string;
  /** Requests received so far. */
  readonly hits: number;
  keys: JWK[];
  mode: JwksServerMode;
  close(): Promise<void>;
}

export async function startJwksServer(keys: JWK[]): Promise<JwksServer> {
  const held = new Set<ServerResponse>();
  let hits = 0;
  const state = { keys, mode: 'ok' as JwksServerMode };
  const server = createServer((req, res) => {
    hits++;
    switch (state.mode) {
      case 'error':
        res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
        return;
      case 'hang':
        held.add(res);
        res.once('close', () => held.delete(res));
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": "nope"}');
        return;
      case 'redirect':
        res.writeHead(302, { location: `${url}/elsewhere` }).end();
        return;
      default:
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ keys: state.keys }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  return {
    url,
    get hits() {
      return hits;
    },
    get keys() {
      return state.keys;
    },
    set keys(value: JWK[]) {
      state.keys = value;
    },
    get mode() {
      return state.mode;
    },
    set mode(value: JwksServerMode) {
      state.mode = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
