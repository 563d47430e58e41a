import type { OpenAPIObject, PathItemObject, SchemaObject } from '@nestjs/swagger';

/**
 * Routes the service serves outside the controllers' documentation: the metrics scrape and
 * this document itself (health comes from its controller).
 */
export function addOperationsRoutes(doc: OpenAPIObject): void {
  const text = (description: string, type: string, schema: SchemaObject): PathItemObject => ({
    get: {
      tags: ['operations'],
      summary: description,
      description,
      responses: { 200: { description, content: { [type]: { schema } } } },
    },
  });
  doc.paths['/metrics'] ??= text(
    'Prometheus metrics (text exposition format 0.0.4): HTTP latency by route and status, queue depth, delivery outcomes, breaker states, catalogue sync.',
    'text/plain',
    { type: 'string', maxLength: 10_000_000 },
  );
  doc.paths['/openapi.json'] ??= text(
    "This OpenAPI document, as this deployment serves it (the catalogue's insurer member is named after its INSURER_NAME).",
    'application/json',
    { type: 'object' },
  );
  doc.paths['/openapi.yaml'] ??= text('This OpenAPI document, in YAML.', 'text/yaml', {
    type: 'string',
    maxLength: 10_000_000,
  });
  doc.paths['/docs'] ??= text(
    'The interactive documentation of this document (Swagger UI).',
    'text/html',
    { type: 'string', maxLength: 10_000_000 },
  );
}
