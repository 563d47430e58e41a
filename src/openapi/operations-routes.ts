import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';

/** Routes served outside the controllers' documentation: the metrics scrape and this document. */
export function addOperationsRoutes(doc: OpenAPIObject): void {
  const route = (description: string, type: string, schema: SchemaObject) => ({
    get: {
      tags: ['operations'],
      summary: description,
      description,
      responses: { 200: { description, content: { [type]: { schema } } } },
    },
  });
  const text = { type: 'string', maxLength: 10_000_000 } as const;
  doc.paths['/metrics'] ??= route(
    'Prometheus metrics (text exposition format 0.0.4): HTTP latency by route and status, queue depth, delivery outcomes, breaker states, catalogue sync.',
    'text/plain',
    text,
  );
  doc.paths['/openapi.json'] ??= route(
    "This OpenAPI document, as this deployment serves it (the catalogue's insurer member is named after its INSURER_NAME).",
    'application/json',
    { type: 'object' },
  );
  doc.paths['/openapi.yaml'] ??= route('This OpenAPI document, in YAML.', 'text/yaml', text);
  doc.paths['/docs'] ??= route(
    'The interactive documentation of this document (Swagger UI).',
    'text/html',
    text,
  );
}
