import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { RequestWithContext } from './request-context.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Echoes a sane client X-Request-Id, otherwise the id the service mints; first middleware so
 * every answer has it. The minted id is kept either way: it is the one the service's own
 * records (the event log) carry, since a client's text must never pass for the service's; the
 * client's own goes beside it only once the client authenticated (request-scope.ts).
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
