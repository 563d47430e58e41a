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
  const stack: Array<[unknown, number]> = [[req.body as unknown, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      next(
        new DomainError('VALIDATION_FAILED', 'Request body is nested too deeply', [
          { field: '(body)', issue: `must not nest more than ${MAX_JSON_DEPTH} levels deep` },
        ]),
      );
      return;
    }
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  next();
}
