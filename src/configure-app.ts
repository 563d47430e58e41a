import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { Logger } from 'pino';
import { admissionMiddleware } from './common/http/admission.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { httpObservabilityMiddleware } from './common/http/http-observability.middleware.js';
import { jsonDepthMiddleware } from './common/http/json-depth.middleware.js';
import { jsonDuplicateKeysMiddleware, keepRawBody } from './common/http/json-duplicate-keys.js';
import { jsonOnlyMiddleware } from './common/http/json-only.middleware.js';
import { requestIdMiddleware } from './common/http/request-id.middleware.js';
import { requestScopeMiddleware } from './common/http/request-scope.js';
import { securityHeadersMiddleware } from './common/http/security-headers.middleware.js';
import { RouteMethodIndex } from './common/http/route-methods.js';
import { RequestValidationPipe } from './common/validation/request-validation.pipe.js';
import { MetricsService } from './common/metrics/metrics.service.js';
import type { AppConfig } from './config/app-config.js';
import { APP_CONFIG } from './config/config.module.js';
import { medicamentosSettings } from './medicamentos/medicamentos.settings.js';
import { setupOpenApi } from './openapi/setup-openapi.js';
import { paginaPublicaMiddleware } from './publico/pagina-publica.middleware.js';
import { PublicoRateLimit } from './publico/publico-rate-limit.js';

/** The wire conventions, app-wide, in the order a request meets them (main.ts's and the e2e tests'). */
export async function configureApp(app: NestExpressApplication, logger: Logger): Promise<void> {
  const routes = new RouteMethodIndex();
  app.disable('x-powered-by');
  // No ETag: the answers are not cacheable, and hashing every body costs CPU.
  app.set('etag', false);
  app.set('query parser', 'simple');
  const config = app.get<AppConfig>(APP_CONFIG);
  app.set('trust proxy', config.http.trustProxy);
  app.use(requestIdMiddleware);
  app.use(securityHeadersMiddleware);
  app.use(admissionMiddleware(config.http.maxInFlight, app.get(MetricsService).registry));
  app.use(httpObservabilityMiddleware(logger, app.get(MetricsService)));
  // The public page's headers and per-address count, on every answer under /r (SPEC 11.8).
  app.use('/r', paginaPublicaMiddleware(app.get(PublicoRateLimit)));
  app.use(jsonOnlyMiddleware(routes));
  app.use(
    // Contract §1: bodies over 100 kB are refused with 413.
    express.json({ limit: '100kb', strict: false, type: () => true, verify: keepRawBody }),
  );
  app.use(jsonDepthMiddleware);
  app.use(jsonDuplicateKeysMiddleware);
  app.use(requestScopeMiddleware);
  app.useGlobalFilters(new AllExceptionsFilter(logger.child({ component: 'errors' }), routes));
  app.useGlobalPipes(new RequestValidationPipe());
  app.enableShutdownHooks();
  await setupOpenApi(app, {
    insurerName: config.settings(medicamentosSettings).insurerName,
    publicBaseUrl: config.publicBaseUrl,
  });
  await app.init();
  routes.loadFrom(app.getHttpAdapter().getInstance());
}
