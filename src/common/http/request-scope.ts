import type { NextFunction, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestWithContext } from './request-context.js';

/** The request being handled, for code deep in its handling (the event log's ids, its signal). */
const scope = new AsyncLocalStorage<RequestWithContext>();

/** The id the service minted for the request being handled (never the client's), else null. */
export const currentRequestId = (): string | null => scope.getStore()?.serviceRequestId ?? null;

/** The client's X-Request-Id, only when an authenticated API client sent it (SPEC 11.8). */
export const currentClientRequestId = (): string | null => {
  const request = scope.getStore();
  return request?.apiClient ? request.clientRequestId : null;
};

/** The request's signal: work that can stop stops when it aborts (SPEC 13). */
export const currentSignal = (): AbortSignal | undefined => scope.getStore()?.abort?.signal;

/**
 * Runs the rest of the request's handling in its scope: a middleware, since Express calls the
 * next layers inside `next()`; after the body parser, whose callbacks run in the socket's context.
 */
export function requestScopeMiddleware(
  req: RequestWithContext,
  res: Response,
  next: NextFunction,
): void {
  const abort = new AbortController();
  req.abort = abort;
  // The client went away before its answer: nobody will read it.
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  scope.run(req, next);
}
