import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { RequestWithContext } from './request-context.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Echoes a sane client X-Request-Id, else the id the service mints (kept either way: the event
 * log's, since a client's text must never pass for the service's). First, so every answer has it.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const clientId = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : null;
  const ctx = req as RequestWithContext;
  ctx.serviceRequestId = randomUUID();
  ctx.clientRequestId = clientId;
  ctx.requestId = clientId ?? ctx.serviceRequestId;
  ctx.startedAt = process.hrtime.bigint();
  res.setHeader('X-Request-Id', ctx.requestId);
  next();
}
