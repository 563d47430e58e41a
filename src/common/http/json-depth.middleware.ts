import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error.js';

/** Far deeper than any body the API defines (a registration is 3 levels deep). */
const MAX_JSON_DEPTH = 32;

/**
 * A 100 kB body can nest 30,000 levels deep, and the recursive code after the parser (the
 * idempotency hash, class-transformer) would overflow the stack on it: refused first.
 */
export function jsonDepthMiddleware(req: Request, _res: Response, next: NextFunction): void {
  if (!nestsDeeperThan(req.body, MAX_JSON_DEPTH)) return next();
  next(
    new DomainError('VALIDATION_FAILED', 'Request body is nested too deeply', [
      { field: '(body)', issue: `must not nest more than ${MAX_JSON_DEPTH} levels deep` },
    ]),
  );
}

/** Whether `value` nests more than `limit` levels (the recursion stops at the limit). */
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
