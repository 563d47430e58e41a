import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error.js';
import type { RouteMethodIndex } from './route-methods.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/** Whether the request carries a body at all (a length above zero, or chunks). */
const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Contract §1: a body-carrying request without a JSON content type is 415, once the method is
 * known to apply (else 405 with Allow); a PUT or PATCH without a body has no media type to refuse.
 */
export function jsonOnlyMiddleware(routes: RouteMethodIndex) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.method === 'DELETE') return next(deleteBodyProblem(routes, req));
    if (!BODY_METHODS.has(req.method)) return next();
    const wrongMethod = routes.methodNotAllowed(req);
    if (wrongMethod) return next(wrongMethod);
    if (req.method !== 'POST' && !hasBody(req)) return next();
    if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
      return next(
        new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'),
      );
    }
    next();
  };
}

/** Contract §1: a DELETE takes no body (a client would believe it recorded), on a path that takes DELETE. */
function deleteBodyProblem(routes: RouteMethodIndex, req: Request): DomainError | undefined {
  if (!hasBody(req) || !routes.allowedMethods(req.path).includes('DELETE')) return undefined;
  return new DomainError('VALIDATION_FAILED', 'This operation takes no request body', [
    { field: '(body)', issue: 'must be absent: a DELETE takes no body' },
  ]);
}
