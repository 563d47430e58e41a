/**
 * What REFEPS and RENAPER share, because both are SISA web services: credentials in the query
 * string, HTTP 200 whatever happens (the outcome is the `resultado` field), XML unless the
 * caller asks for JSON, and a one-element list serialised as a bare object.
 */
import type { Reply, SandboxRequest } from './http.js';
import { toXmlDocument, type XmlObject } from './xml.js';

export interface SisaCredentials {
  usuario: string;
  clave: string;
}

export function wantsJson(req: SandboxRequest): boolean {
  const accept = req.headers.accept ?? '';
  return accept.toLowerCase().includes('application/json');
}

export function hasValidCredentials(req: SandboxRequest, creds: SisaCredentials): boolean {
  return req.query.get('usuario') === creds.usuario && req.query.get('clave') === creds.clave;
}

/** SISA's quirk: a list of one comes back as the element itself. */
export function oneOrMany<T>(items: T[]): T | T[] {
  return items.length === 1 ? items[0] : items;
}

export function sisaAnswer(req: SandboxRequest, root: string, body: XmlObject): Reply {
  if (wantsJson(req)) {
    return {
      status: 200,
      headers: { 'content-type': 'application/json;charset=UTF-8' },
      body: JSON.stringify(body),
    };
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/xml;charset=UTF-8' },
    body: toXmlDocument(root, body),
  };
}

export function sisaResultado(req: SandboxRequest, root: string, resultado: string): Reply {
  return sisaAnswer(req, root, { resultado });
}

/** Param present and not blank. */
export function param(req: SandboxRequest, name: string): string | undefined {
  const value = req.query.get(name)?.trim();
  return value ? value : undefined;
}

/** The fronting web server's page when SISA is down: HTML, not JSON, as in production. */
export function sisaUnavailable(): Reply {
  return {
    status: 503,
    headers: { 'content-type': 'text/html;charset=UTF-8' },
    body:
      '<html><head><title>503 Service Unavailable</title></head><body>' +
      '<h1>Service Unavailable</h1><p>The server is temporarily unable to service your ' +
      'request. Please try again later.</p></body></html>',
  };
}
