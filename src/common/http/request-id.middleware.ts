import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { RequestWithContext } from './request-context.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane client X-Request-Id, otherwise mints one; first middleware so every answer has it. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const id =
    typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  const ctx = req as RequestWithContext;
  ctx.requestId = id;
  ctx.startedAt = process.hrtime.bigint();
  res.setHeader('X-Request-Id', id);
  next();
}
