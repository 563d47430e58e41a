import type { NextFunction, Request, Response } from 'express';

/** Express matches routes case-insensitively, so /V1/… reaches the same handlers. */
const API_PATH = /^\/v1(\/|$)/i;

/** Contract §1's headers, set before anything can answer: no sniffing, no stored /v1 answer. */
export function securityHeadersMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (API_PATH.test(req.path)) res.setHeader('Cache-Control', 'no-store');
  next();
}
