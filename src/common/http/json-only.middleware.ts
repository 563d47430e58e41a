import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/** SPEC 1: a body-carrying request without a JSON content type is refused with 415. */
export function jsonOnlyMiddleware(req: Request, _res: Response, next: NextFunction): void {
  if (BODY_METHODS.has(req.method) && !JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
    next(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'));
    return;
  }
  next();
}
