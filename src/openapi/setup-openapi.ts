import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { errorCodes } from '../common/errors/error-codes.js';
import { API_KEY_SCHEME, API_SECRET_SCHEME, CITIZEN_TOKEN_SCHEME } from '../common/http/access.js';
import { completeDocument, type DocumentSettings } from './document-conventions.js';
import { ErrorEnvelopeDto } from './error-envelope.dto.js';
import { validatorSchemas } from '../common/validation/validator-schemas.js';

const DESCRIPTION = `
HTTP API for Argentine health-provider platforms: CUIR generation, prescription registration
(reported to the health ministry), listing and tracking, professional and citizen verification
against SISA, and search of the official medication catalogue.

**Conventions.** JSON in and out, UTF-8. Success: \`{"success": true, "data": ...}\`. Every error,
including unknown routes (404), wrong methods (405, with \`Allow\`), slow or oversized requests
(408, 413 over 100 kB, 431), non-JSON bodies (415), rate limits (429) and unavailability (503), uses
the error envelope (\`ErrorEnvelopeDto\`) with a machine-readable \`code\`; these standard answers are
listed on every operation (\`#/components/responses\`).
Unknown body fields and unknown query parameters are refused with 400 \`UNKNOWN_FIELD\` (request
bodies say so with \`additionalProperties: false\`; OpenAPI 3.0 cannot say it of query strings).
Text in any body field or query parameter holding a control character (U+0000–U+001F, tab, CR and
LF included; U+007F–U+009F), a line or paragraph separator (U+2028, U+2029), a format character
(Unicode category Cf: the bidirectional controls and marks U+202A–U+202E, U+2066–U+2069, U+200E,
U+200F, U+061C, zero-width characters, U+FEFF, …) or an unpaired UTF-16 surrogate is refused with
400 \`VALIDATION_FAILED\` naming each such field; request strings without a pattern of their own
state this as their \`pattern\` (Unicode property escapes, meant with the \`u\` flag).

**Headers.** Every answer carries \`X-Request-Id\` (a sane client value is echoed).
\`/v1\` answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` once the
client is authenticated (on the patient's routes, every answer: the citizen's or the address's
budget, whichever is nearer its end); 429 carries \`Retry-After\`. Idempotent operations accept
\`Idempotency-Key\` (the client's, shared by all its endpoints, bound to one method, actual path
and body) and mark replayed answers with \`Idempotent-Replayed: true\`.

**Authentication.** Every \`/v1\` operation needs both \`X-API-Key\` and \`X-API-Secret\` (one
requirement: the two together) and one scope, named in the operation's \`x-required-scope\` and
description (OpenAPI 3.0 gives scopes to OAuth2 only). Health, metrics and this document need no
credentials.

**One document per deployment.** The catalogue's discount member is named after the insurer the
deployment serves (\`<INSURER_NAME>_descuento\`, default \`pami_descuento\`): this document, as
served, names it for this deployment, so a client generated from it is for this deployment.
`;

/**
 * Builds the OpenAPI document and serves it at /docs and /openapi.json. The DTOs' schemas come
 * from their validators, types and JSDoc (generated/openapi-metadata.ts, by the swagger plugin).
 */
export async function setupOpenApi(app: INestApplication, options: DocumentSettings) {
  await SwaggerModule.loadPluginMetadata(loadDtoMetadata);
  const config = new DocumentBuilder()
    .setTitle('Prescription Registry Service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addApiKey(
      apiKey('X-API-Key', "The API client's public key (`rk_…`); always sent with X-API-Secret."),
      API_KEY_SCHEME,
    )
    .addApiKey(
      apiKey(
        'X-API-Secret',
        "The API client's secret (`rs_…`, shown once when issued); always sent with X-API-Key. A header by design: never in a URL.",
      ),
      API_SECRET_SCHEME,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          "A citizen's Mi Argentina token (RS256/RS512, at most 300 s long, `cuil` claim): the patient's routes only, which take no API keys. Verified following RFC8725 (JWT best current practices): algorithms pinned to RS256/RS512 (no `none`, no HMAC), keys only from the issuer's JWKS, exact issuer and audience, expiry and maximum lifetime enforced.",
      },
      CITIZEN_TOKEN_SCHEME,
    )
    .build();
  const built = SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelopeDto] });
  built.info.license = { name: 'Proprietary (UNLICENSED)' };
  listErrorCodes(built);
  const document = completeDocument(built, options);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'Prescription Registry Service — API',
  });
}

const apiKey = (name: string, description: string) =>
  ({ type: 'apiKey', in: 'header', name, description }) as const;

type PluginMetadata = Awaited<
  ReturnType<typeof import('../../generated/openapi-metadata.js').default>
>;

/** The plugin's generated metadata, each property completed by its validators. */
async function loadDtoMetadata(): Promise<PluginMetadata> {
  const metadata = await (await import('../../generated/openapi-metadata.js')).default();
  for (const [load, classes] of metadata['@nestjs/swagger'].models) {
    const module = (await load) as Record<string, abstract new (...args: never[]) => unknown>;
    const properties = classes as Record<string, Record<string, object>>;
    for (const [name, props] of Object.entries(properties)) {
      for (const [property, schema] of validatorSchemas(module[name])) {
        if (props[property]) props[property] = { ...props[property], ...schema };
      }
    }
  }
  return metadata;
}

/** Every module's codes are known only once the slices are registered: fill the enum now. */
function listErrorCodes(document: OpenAPIObject): void {
  const body = document.components?.schemas?.ErrorBodyDto as SchemaObject | undefined;
  const code = body?.properties?.code as SchemaObject | undefined;
  if (code) code.enum = errorCodes();
}
