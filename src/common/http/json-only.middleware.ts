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
 * Contract §1: a body-carrying request without a JSON content type is refused with 415 — but only
 * once the method is known to apply: a method the path does not take is 405 with Allow
 * whatever its body (checked first, as the method comes first), and a PUT or PATCH without
 * a body has no media type to refuse (it goes on to routing: 405 or 404). A POST always needs
 * the JSON content type, body or not.
 */
export function jsonOnlyMiddleware(routes: RouteMethodIndex) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.method === 'DELETE') return next(deleteBodyProblem(routes, req));
    if (!BODY_METHODS.has(req.method)) return next();
    const allowed = routes.allowedMethods(req.path);
    if (allowed.length > 0 && !allowed.includes(req.method)) {
      return next(
        new DomainError(
          'METHOD_NOT_ALLOWED',
          `Method ${req.method} not allowed on this path`,
          undefined,
          { headers: { Allow: allowed.join(', ') } },
        ),
      );
    }
    if (req.method !== 'POST' && !hasBody(req)) return next();
    if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
      return next(
        new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'),
      );
    }
    next();
  };
}

/**
 * Contract §1: a DELETE takes no body. The body parser would parse one and the handler ignore it,
 * so a client sending, say, a reason for the release would believe it recorded. Only on a path
 * that takes DELETE: elsewhere the answer is the 404 or 405 it would be anyway.
 */
function deleteBodyProblem(routes: RouteMethodIndex, req: Request): DomainError | undefined {
  if (!hasBody(req) || !routes.allowedMethods(req.path).includes('DELETE')) return undefined;
  return new DomainError('VALIDATION_FAILED', 'This operation takes no request body', [
    { field: '(body)', issue: 'must be absent: a DELETE takes no body' },
  ]);
}
