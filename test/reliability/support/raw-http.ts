import { Agent, IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import {
  ContractViolation,
  contractProblem,
  prefetchContract,
} from '../../support/contract/served-contracts.js';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
  ms: number;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  /** The client gives up after this long (the test then fails on a hang). */
  timeoutMs?: number;
  /** A connection of its own (races: truly concurrent, not queued behind the shared pool). */
  fresh?: boolean;
}

// Keep-alive: thousands of fuzz cases should not each pay a TCP handshake.
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * One request through node:http with exactly the given headers and body bytes (no JSON
 * encoding, no default content type), so bodies can be invalid UTF-8 or not JSON at all.
 * The answer is checked against the server's OpenAPI document, as supertest's are
 * (test/support/contract); a violation rejects with a ContractViolation.
 */
export async function rawRequest(baseUrl: string, r: RawRequest): Promise<RawResponse> {
  prefetchContract(new URL(baseUrl).origin);
  const res = await exchange(baseUrl, r);
  const problem = await contractProblem(new URL(baseUrl).origin, {
    method: r.method ?? 'GET',
    url: r.path,
    status: res.status,
    headers: res.headers,
    body: res.body,
    text: res.text,
  });
  if (problem) throw new ContractViolation(`OpenAPI contract: ${problem}`);
  return res;
}

function exchange(baseUrl: string, r: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: r.method ?? 'GET',
        path: r.path,
        headers: r.headers,
        agent: r.fresh ? false : agent,
        timeout: r.timeoutMs ?? 20_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            body: parse(text),
            ms: performance.now() - started,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${r.timeoutMs ?? 20_000} ms`)));
    req.on('error', reject);
    if (r.body !== undefined) req.end(r.body);
    else req.end();
  });
}

/**
 * A request written byte for byte on a TCP socket: for what node:http refuses to send
 * (invalid UTF-8 or control bytes in the request line or a header). Asks for Connection:
 * close and reads until the server closes.
 */
export function socketRequest(baseUrl: string, head: Buffer, body?: Buffer): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const headText = split >= 0 ? raw.slice(0, split) : raw;
      const lines = headText.split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers: IncomingHttpHeaders = {};
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const text = split >= 0 ? Buffer.from(raw.slice(split + 4), 'latin1').toString('utf8') : '';
      resolve({ status, headers, text, body: parse(text), ms: performance.now() - started });
    });
    socket.write(Buffer.concat([head, body ?? Buffer.alloc(0)]));
  });
}

/**
 * Contract §1 for any answer: never a 500 unless the test expects one; every error in the
 * envelope with a request_id equal to the X-Request-Id header. Throws with the request
 * described, so a fast-check counterexample is readable; given the app's log (`serverLog`),
 * a 5xx's failure carries the app's lines for that request, so a rare one seen only on CI can
 * be told from its report.
 */
export function checkAnswer(
  res: RawResponse,
  what: string,
  opts: { allow500?: boolean; serverLog?: () => string } = {},
): void {
  const fail = (why: string) => {
    throw new Error(
      `${why}\n  request: ${what}\n  answer ${res.status}: ${res.text.slice(0, 500)}${logFor(res, opts.serverLog)}`,
    );
  };
  if (res.status >= 500 && !opts.allow500) fail('answered 5xx');
  if (res.status === 0) fail('no HTTP answer');
  if (res.status < 400) return;
  const b = res.body;
  if (!b || typeof b !== 'object') fail('error body is not JSON');
  if (b.success !== false) fail('error envelope lacks success: false');
  if (typeof b.error?.code !== 'string' || typeof b.error?.message !== 'string')
    fail('error envelope lacks error.code / error.message');
  if (typeof b.request_id !== 'string' || b.request_id.length === 0) fail('no request_id');
  if (res.headers['x-request-id'] !== b.request_id) fail('request_id differs from X-Request-Id');
  if (/at .+\.(js|ts):\d+|QueryFailedError|SELECT |INSERT /.test(res.text))
    fail('internals leaked into the answer');
}

/** The app's log lines naming the answer's request id, for a failure's report. */
function logFor(res: RawResponse, serverLog?: () => string): string {
  const id = String(res.headers['x-request-id'] ?? '');
  if (!serverLog || !id) return '';
  const lines = serverLog()
    .split('\n')
    .filter((l) => l.includes(id));
  return `\n  the app's log for ${id}:\n${lines.map((l) => `    ${l.slice(0, 4000)}`).join('\n')}`;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One HTTP/1.1 response read off a raw byte stream (Content-Length framing). */
export interface FramedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Opens a socket, writes `head` (and then `rest` after `pauseMs`, if given), and collects every
 * byte until the server closes the connection or `timeoutMs` passes; `closedAfterMs` tells when
 * the server closed (undefined: it never did).
 */
export function socketExchange(
  baseUrl: string,
  head: Buffer | string,
  opts: { rest?: Buffer | string; pauseMs?: number; timeoutMs?: number } = {},
): Promise<{ raw: Buffer; closedAfterMs?: number }> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({
        raw: Buffer.concat(chunks),
        closedAfterMs: closed ? performance.now() - started : undefined,
      });
    };
    const timer = setTimeout(() => done(false), opts.timeoutMs ?? 20_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined); // a reset counts as a close
    socket.on('close', () => done(true));
    socket.write(head);
    if (opts.rest !== undefined) {
      const rest = opts.rest;
      setTimeout(() => socket.writable && socket.write(rest), opts.pauseMs ?? 0);
    }
  });
}

/** Splits a byte stream into the HTTP responses it holds, in order; trailing bytes are ignored. */
export function framedResponses(raw: Buffer): FramedResponse[] {
  const out: FramedResponse[] = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at, 'latin1');
    if (end < 0) break;
    const lines = raw.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1] ?? 0);
    if (status === 0) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const text = raw.subarray(end + 4, end + 4 + length).toString('utf8');
    out.push({ status, headers, text });
    at = end + 4 + length;
  }
  return out;
}
