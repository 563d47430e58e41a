import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { MetricsService } from '../metrics/metrics.service.js';
import { createAccessLogger, scrubUrl } from '../logging/logger.js';
import type { RequestWithContext } from './request-context.js';

/** One log line and one histogram sample per request, written when the response is finished. */
export function httpObservabilityMiddleware(logger: Logger, metrics: MetricsService) {
  const log = createAccessLogger(logger).child({ component: 'http' });
  return (req: Request, res: Response, next: NextFunction): void => {
    res.on('finish', () => {
      const ctx = req as RequestWithContext;
      const seconds = Number(process.hrtime.bigint() - ctx.startedAt) / 1e9;
      // No route but a mount point: a static middleware answered (the docs' assets, /docs/*).
      const route = req.route
        ? `${req.baseUrl}${String((req.route as { path: string }).path)}`
        : req.baseUrl
          ? `${req.baseUrl}/*`
          : 'unmatched';
      metrics.httpDuration.observe(
        { method: req.method, route, status: String(res.statusCode) },
        seconds,
      );
      const line = {
        request_id: ctx.requestId,
        // The event log's id of the request, which differs when the client sent its own.
        service_request_id: ctx.serviceRequestId,
        client_id: ctx.apiClient?.id,
        method: req.method,
        url: scrubUrl(req.originalUrl),
        route,
        status: res.statusCode,
        latency_ms: Math.round(seconds * 1e6) / 1e3,
      };
      if (res.statusCode >= 500) log.error(line, 'request failed');
      else log.info(line, 'request');
    });
    next();
  };
}
