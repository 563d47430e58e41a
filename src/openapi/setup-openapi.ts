import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';

export const API_KEY_SCHEME = 'ApiKey';
export const API_SECRET_SCHEME = 'ApiSecret';

const DESCRIPTION = `
HTTP API for Argentine health-provider platforms: CUIR generation, prescription registration
(reported to the health ministry), listing and tracking, professional and citizen verification
against SISA, and search of the official medication catalogue.

**Conventions.** JSON in and out. Success: \`{"success": true, "data": ...}\`. Every error, including
unknown routes (404), wrong methods (405), oversized bodies (413, limit 100 kB), non-JSON POSTs (415)
and rate limits (429), uses the error envelope (\`ErrorEnvelope\`) with a machine-readable \`code\`.
Unknown body fields and unknown query parameters are refused with 400 \`UNKNOWN_FIELD\`.
Every response carries \`X-Request-Id\` (a sane client value is echoed).
`;

/** Builds the OpenAPI document from the controllers and DTOs and serves it at /docs and /openapi.json. */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Prescription Registry Service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SCHEME)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Secret' }, API_SECRET_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelopeDto] });
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Prescription Registry Service — API',
  });
}
