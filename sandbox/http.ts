import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** A request already read in full, so handlers stay synchronous and easy to test. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export class BodyTooLargeError extends Error {}

// Catalogue PUTs are the largest bodies we expect; anything near this is a client bug.
const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(value),
  };
}

export function noContent(): Reply {
  return { status: 204 };
}

export function notFound(path: string): Reply {
  return json(404, { error: { codigo: 'NO_ENCONTRADO', mensaje: `No route for ${path}` } });
}

/** Our own JSON APIs (catalogue, ministry, control) share this error shape. */
export function jsonError(status: number, codigo: string, mensaje: string): Reply {
  return json(status, { error: { codigo, mensaje } });
}

/** Parses a JSON body; returns undefined when it is not valid JSON. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
