import type { NextFunction, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestWithContext } from './request-context.js';

/**
 * What code deep in a request's handling may need to know of the request without every call
 * passing it down: its ids (the event log stores them beside each action), and whether it
 * should stop.
 */
interface RequestScope {
  requestId: string;
  /**
   * The request itself: whether its caller authenticated is known only later (the guards); its
   * `abort` signal says when it should stop.
   */
  request: RequestWithContext;
}

const scope = new AsyncLocalStorage<RequestScope>();

/**
 * The id the service minted for the request being handled (a UUID, never the client's
 * X-Request-Id), or null outside one (jobs, the CLI).
 */
export const currentRequestId = (): string | null => scope.getStore()?.requestId ?? null;

/**
 * The sane X-Request-Id of the request being handled when an authenticated API client sent it,
 * else null (none, outside a request, or an anonymous caller's: the public page or a failed
 * authentication, whose text nobody answers for must not be stored, SPEC 11.8).
 */
export const currentClientRequestId = (): string | null => {
  const request = scope.getStore()?.request;
  return request?.apiClient ? request.clientRequestId : null;
};

/**
 * The request's signal, or undefined outside one: work that can stop (a statement, a
 * transaction about to commit, an upstream call) stops when it aborts (SPEC 13: a request past
 * its time answers 503 having stored nothing; nothing keeps running for an answer nobody reads).
 */
export const currentSignal = (): AbortSignal | undefined => scope.getStore()?.request.abort?.signal;

/**
 * Runs the rest of the request's handling (guards, pipes, the handler and everything it
 * awaits) inside its scope. A middleware rather than an interceptor: Express calls the next
 * layers from inside `next()`, so one `run` covers them at no extra rxjs hop. Registered after
 * the body parser, whose callbacks run in the socket's context, not the request's.
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
  scope.run({ requestId: req.serviceRequestId, request: req }, next);
}
