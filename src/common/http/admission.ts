import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, type Registry } from 'prom-client';
import { errorEnvelope } from '../errors/error-envelope.js';
import type { RequestWithContext } from './request-context.js';

/** Paths never shed: an orchestrator must see the instance alive and ready, and its metrics. */
const NEVER_SHED = /^\/(health\/|metrics$)/;

/**
 * SPEC 13: past HTTP_MAX_IN_FLIGHT requests, one is answered 503 with Retry-After before any work,
 * so a burst is shed instead of queued (docs/architecture.md, "Why not a library").
 */
export function admissionMiddleware(maxInFlight: number, registry: Registry) {
  let inFlight = 0;
  const shed = new Counter({
    name: 'http_requests_shed_total',
    help: 'Requests answered 503 at once because HTTP_MAX_IN_FLIGHT were already in flight',
    registers: [registry],
  });
  new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests being worked on by this process (HTTP_MAX_IN_FLIGHT bounds it)',
    registers: [registry],
    collect() {
      this.set(inFlight);
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (NEVER_SHED.test(req.path)) return next();
    if (inFlight >= maxInFlight) {
      shed.inc();
      res.statusCode = 503;
      res.setHeader('Retry-After', '1');
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(
        JSON.stringify(
          errorEnvelope(
            'SERVICE_UNAVAILABLE',
            'The service is at capacity; retry after the seconds in Retry-After',
            undefined,
            (req as RequestWithContext).requestId,
          ),
        ),
      );
      return;
    }
    inFlight++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      inFlight--;
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
