import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';

/**
 * Example values composed from the schemas themselves: a property's own `example`, else the
 * value below for its name (so a CUIR looks like a CUIR wherever it appears), else one derived
 * from its type. The e2e suite sends every request example and expects it accepted, and the
 * linters check every example against its schema.
 */
export const EXAMPLES_BY_PROPERTY: Record<string, unknown> = {
  id_transaccion: '1042',
  cuir: '00010001020102000000000000000000001234501',
  documento: '30111222',
  documento_paciente: '30111222',
  matricula: '123456',
  matricula_profesional: '123456',
  refeps_id: '8123456',
  locacion: 'Hospital de Clínicas, consultorio 12',
  id_de_receta: 'RX-2026-000123',
  nombre_medicamento: 'Ibuprofeno',
  jurisdiccion: '02',
  mensaje: 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud',
  evento: 'REGISTRADA',
  resultado: 'ok',
  detalle: null,
  verificado_por: 'Farmacia Central',
  verificado_por_id: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
  ministerio_ref: null,
  failure_reason: 'rejected by the ministry: invalid licence',
  content_sha256: '9f2c4e1a7b3d5f60812a4c6e8b0d2f4618a3c5e7092b4d6f81a3c5e7092b4d6f',
};

const DATE_TIME_EXAMPLE = '2026-11-22T13:30:00Z';

type Schema = SchemaObject | ReferenceObject;
export type SchemaLookup = (ref: string) => SchemaObject | undefined;

const isRef = (s: Schema): s is ReferenceObject => '$ref' in s;

/** An example for `schema`, or undefined when none can be composed. */
export function composeExample(
  schema: Schema | undefined,
  lookup: SchemaLookup,
  propertyName?: string,
  depth = 0,
): unknown {
  if (!schema || depth > 8) return undefined;
  if (isRef(schema)) return composeExample(lookup(schema.$ref), lookup, propertyName, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (propertyName !== undefined && propertyName in EXAMPLES_BY_PROPERTY) {
    return EXAMPLES_BY_PROPERTY[propertyName];
  }
  if (schema.enum?.length) return schema.enum[0];
  if (schema.properties) {
    const example: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const value = composeExample(property, lookup, name, depth + 1);
      if (value !== undefined) example[name] = value;
    }
    return example;
  }
  switch (schema.type) {
    case 'array': {
      const item = composeExample(schema.items, lookup, undefined, depth + 1);
      return item === undefined ? undefined : [item];
    }
    case 'string':
      if (schema.format === 'date-time') return DATE_TIME_EXAMPLE;
      if (schema.format === 'date') return DATE_TIME_EXAMPLE.slice(0, 10);
      return schema.nullable ? null : undefined;
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return true;
    default:
      return schema.nullable ? null : undefined;
  }
}
