import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';

/**
 * One prescription's story, told by every example of the document so that they chain: the CUIR
 * the generation example answers is the one registered, reserved, dispensed and verified; the
 * registration's id_transaccion is the one cancelled, read and tracked; the reservation and the
 * dispensation are the ones released, read and reversed; the catalogue code is the sandbox
 * catalogue's (IBUPIRAC 400 mg, 20 tablets).
 *
 * Registered 2026-11-22 10:30 (Argentina time) for 30 days; reserved the next day at 10:20,
 * until 10:30; dispensed at 10:25 (both units of its one item); that dispensation reversed at
 * 12:00. Each answer's example shows the prescription as that answer would.
 */
export const EXAMPLE_IDS = {
  cuir: '00010001020102000000000000000000001234501',
  id_transaccion: '1042',
  reserva_id: 'b7c9d2e4-1f3a-4b5c-8d6e-7f8091a2b3c4',
  id_dispensa: '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
  codigo: '1336421',
  ministerio_ref: 'PTR-001042',
  vigencia: { desde: '2026-11-22', hasta: '2026-12-21' },
  registrada: '2026-11-22T13:30:00Z',
  reservada: '2026-11-23T13:20:00Z',
  reserva_vence: '2026-11-23T13:30:00Z',
  dispensada: '2026-11-23T13:25:00Z',
  revertida: '2026-11-23T15:00:00Z',
} as const;

type Data = Record<string, unknown>;

/** Request examples that differ from what their schemas compose, by operationId. */
export const REQUEST_EXAMPLES: Partial<Record<string, (body: Data) => Data>> = {
  // The pharmacy's live reservation is consumed without naming it; the optional reserva_id
  // would have to be the id the reservation answered (another one is refused with 400).
  dispensarReceta: ({ reserva_id: _, ...body }) => body,
};

/**
 * Examples are composed from the schemas: a property's own `example`, else the value below for
 * its name (a CUIR looks like a CUIR wherever it appears), else one derived from its type.
 */
export const EXAMPLES_BY_PROPERTY: Record<string, unknown> = {
  id_transaccion: EXAMPLE_IDS.id_transaccion,
  cuir: EXAMPLE_IDS.cuir,
  reserva_id: EXAMPLE_IDS.reserva_id,
  id_dispensa: EXAMPLE_IDS.id_dispensa,
  documento_paciente: '30111222',
  matricula_profesional: '123456',
  refeps_id: '8123456',
  locacion: 'Hospital de Clínicas, consultorio 12',
  id_de_receta: 'RX-2026-000123',
  nombre_medicamento: 'Ibuprofeno',
  mensaje: 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud',
  evento: 'REGISTRADA',
  resultado: 'ok',
  detalle: null,
  verificado_por: 'Farmacia Central',
  verificado_por_id: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
  ministerio_ref: null,
};

const COMPLETED = {
  estado: 'COMPLETED',
  mensaje: 'Transacción completada: el Ministerio de Salud confirmó la recepción',
  completed_at: '2026-11-22T13:30:05Z',
  updated_at: '2026-11-22T13:30:05Z',
};
/** The detail's `dispensas` entry of the story's dispensation (as GET /v1/dispensas/{id} shows it). */
const DISPENSA_DE_RECETA = {
  id_dispensa: EXAMPLE_IDS.id_dispensa,
  fecha_dispensa: EXAMPLE_IDS.dispensada,
  farmacia: { cuit: '30712345671', nombre: 'Farmacia Central' },
  items: [
    {
      item: 1,
      nombre: 'Ibuprofeno 400 mg comprimidos',
      cantidad_dispensada: 2,
      codigo: EXAMPLE_IDS.codigo,
      sustituido: false,
    },
  ],
  revertida: false,
};
/** The story's dispensation as its own answers show it (not reversed). */
const dispensed = (d: Data): Data => ({
  ...d,
  estado_receta: 'DISPENSADA',
  fecha_dispensa: EXAMPLE_IDS.dispensada,
  registrada_at: '2026-11-23T13:25:01Z',
  items: (d.items as Data[]).map((i) => ({ ...i, sustituido: false })),
  revertida: false,
  revertida_at: null,
  motivo_reversion: null,
});

/**
 * The health authority's story (SPEC 9.3): a restricted prescription of the Province of Buenos
 * Aires (subtype 03, bajo receta archivada), clonazepam, dispensed the next day.
 */
const RECETA_FISCALIZADA: Data = {
  cuir: '00010001060103000000000000000000004567801',
  id_transaccion: '2087',
  subtipo: '03',
  fecha_creacion: '2026-11-22T14:10:00Z',
  documento_paciente: '30111222',
  paciente: {
    nombre: 'Ana María',
    apellido: 'Fernández',
    sexo: 'F',
    fecha_nacimiento: '1985-03-14',
  },
  diagnostico: { codigo: 'F41.1', descripcion: 'Trastorno de ansiedad generalizada' },
  matricula_profesional: '654321',
  jurisdiccion: '06',
  estado_receta: 'DISPENSADA',
  vigencia_desde: EXAMPLE_IDS.vigencia.desde,
  vigencia_hasta: EXAMPLE_IDS.vigencia.hasta,
  items: [
    {
      nombre: 'Rivotril 2 mg',
      cantidad: 1,
      dci: 'clonazepam',
      concentracion: '2 mg',
      forma_farmaceutica: 'comprimido',
      presentacion: 'envase x 30 comprimidos',
      posologia: 'medio comprimido por la noche durante 30 días',
      sustituible: true,
      dispensado: 1,
    },
  ],
  anulacion: null,
  dispensas: [
    {
      id_dispensa: '5a2b3c4d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
      fecha_dispensa: '2026-11-23T15:40:00Z',
      farmacia: { cuit: '30712345671', nombre: 'Farmacia Central' },
      items: [{ item: 1, cantidad_dispensada: 1, codigo: null, sustituido: false }],
      revertida: false,
      revertida_at: null,
    },
  ],
};

/**
 * Success examples that differ from what their schemas compose, by operationId: the
 * prescription as that answer shows it in the story above (the composed `data` in and out).
 */
export const SUCCESS_EXAMPLES: Partial<Record<string, (data: Data) => Data>> = {
  // After the ministry acknowledged it and the pharmacy dispensed it.
  obtenerReceta: (d) => ({
    ...d,
    ...COMPLETED,
    items: (d.items as Data[]).map((i) => ({ ...i, dispensado: i.cantidad })),
    estado_receta: 'DISPENSADA',
    dispensas: [DISPENSA_DE_RECETA],
  }),
  // Cancelled by its prescriber before anything was dispensed.
  anularReceta: (d) => ({
    ...d,
    ...COMPLETED,
    estado_receta: 'ANULADA',
    anulacion: { at: '2026-11-22T14:00:00Z', motivo: 'Error en la dosis prescripta' },
    dispensas: [],
  }),
  obtenerTransaccion: (d) => ({
    ...d,
    estado: 'COMPLETED',
    intentos: 1,
    ultimo_intento_at: '2026-11-22T13:30:05Z',
    proximo_intento_at: null,
    ministerio_ref: EXAMPLE_IDS.ministerio_ref,
    historial: [
      {
        at: EXAMPLE_IDS.registrada,
        evento: 'REGISTRADA',
        estado: 'PENDING',
        intento: null,
        resultado: 'accepted',
        detalle: 'registration accepted; ministry notification queued',
      },
      {
        at: '2026-11-22T13:30:05Z',
        evento: 'INTENTO',
        estado: 'PENDING',
        intento: 1,
        resultado: 'ok',
        detalle: `received as ${EXAMPLE_IDS.ministerio_ref}`,
      },
      {
        at: '2026-11-22T13:30:05Z',
        evento: 'ESTADO',
        estado: 'COMPLETED',
        intento: 1,
        resultado: 'completed',
        detalle: `ministerio_ref ${EXAMPLE_IDS.ministerio_ref}`,
      },
    ],
  }),
  // Verified the day after, once the ministry had acknowledged it.
  verificarRecetaPorCuir: (d) => ({ ...d, estado: 'COMPLETED' }),
  listarVerificaciones: (d) => ({
    ...d,
    items: (d.items as Data[]).map((i) => ({ ...i, at: '2026-11-23T13:18:00Z' })),
  }),
  reservarReceta: (d) => ({ ...d, vence_at: EXAMPLE_IDS.reserva_vence }),
  listarRecetasFiscalizacion: (d) => ({ ...d, total: 1, items: [RECETA_FISCALIZADA] }),
  obtenerRecetaFiscalizacion: () => RECETA_FISCALIZADA,
  dispensarReceta: dispensed,
  obtenerDispensa: dispensed,
  // Its items dispensable again: the prescription is VIGENTE once more.
  revertirDispensa: (d) => ({
    ...dispensed(d),
    estado_receta: 'VIGENTE',
    revertida: true,
    revertida_at: EXAMPLE_IDS.revertida,
    motivo_reversion: 'Registrada por error: el paciente no retiró la medicación',
  }),
};

type Schema = SchemaObject | ReferenceObject;

/** An example for `schema`, or undefined when none can be composed. */
export function composeExample(
  schema: Schema | undefined,
  lookup: (ref: string) => SchemaObject | undefined,
  propertyName?: string,
  depth = 0,
): unknown {
  if (!schema || depth > 8) return undefined;
  if ('$ref' in schema) return composeExample(lookup(schema.$ref), lookup, propertyName, depth + 1);
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
      if (schema.format === 'date-time') return EXAMPLE_IDS.registrada;
      if (schema.format === 'date') return EXAMPLE_IDS.registrada.slice(0, 10);
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
