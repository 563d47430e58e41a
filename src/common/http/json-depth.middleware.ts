import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error.js';

/** Far deeper than any body the API defines (a registration is 3 levels deep). */
export const MAX_JSON_DEPTH = 32;

/**
 * A 100 kB body can nest 30,000 levels deep; the recursive code after the parser (the
 * idempotency hash, class-transformer) would overflow the stack on it and answer 500. The
 * depth is measured here, without recursion, before any of that runs.
 */
export function jsonDepthMiddleware(req: Request, _res: Response, next: NextFunction): void {
  if (!nestsDeeperThan(req.body, MAX_JSON_DEPTH)) {
    next();
    return;
  }
  next(
    new DomainError('VALIDATION_FAILED', 'Request body is nested too deeply', [
      { field: '(body)', issue: `must not nest more than ${MAX_JSON_DEPTH} levels deep` },
    ]),
  );
}

/**
 * Whether `value` nests more than `limit` levels. Recursive, but it stops descending at the
 * limit, so the stack stays shallow whatever the body; no allocation per visited value.
 */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (nestsDeeperThan(child, limit - 1)) return true;
    return false;
  }
  for (const key in value) {
    if (nestsDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  }
  return false;
}
