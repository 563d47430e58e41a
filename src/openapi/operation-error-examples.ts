import type { ErrorExample } from '../common/errors/error-example.js';
import { ERROR_EXAMPLES } from './error-examples.js';

const notFound = (what: string): ErrorExample => ({
  code: 'NOT_FOUND',
  message: `${what} not found`,
});
const upstream = (system: string): ErrorExample => ({
  code: 'UPSTREAM_UNAVAILABLE',
  message: `The ${system} service is unavailable, try again later`,
});
const RENDERERS_BUSY: ErrorExample = {
  code: 'SERVICE_UNAVAILABLE',
  message: 'Too many documents are being rendered; retry shortly',
};
/** A listing's 400s: its query's own faults. */
const LISTING: ErrorExample[] = [
  {
    code: 'VALIDATION_FAILED',
    message: 'Request validation failed',
    details: [{ field: 'per_page', issue: 'must be an integer from 1 to 200' }],
  },
  {
    code: 'UNKNOWN_FIELD',
    message: 'Unknown query parameter: pagina',
    details: [{ field: 'pagina', issue: 'is not a known query parameter' }],
  },
];
/** A route naming a CUIR past its client's misses (SPEC 9.1.6, 11.5), and the general limit. */
const UNKNOWN_CUIRS: ErrorExample[] = [
  {
    code: 'RATE_LIMITED',
    name: 'RATE_LIMITED_unknown_cuirs',
    message:
      'Too many unknown CUIRs (20 per minute); verification and dispensation by CUIR are refused until the minute ends',
    summary: 'Past VERIFICACION_FALLOS_POR_MINUTO unknown CUIRs this minute',
  },
  { ...ERROR_EXAMPLES.RATE_LIMITED, summary: "Over the client's requests per minute" },
];
const CITIZEN: ErrorExample[] = [
  { code: 'UNAUTHENTICATED', message: 'Invalid or expired citizen token' },
  notFound('Prescription'),
  {
    code: 'RATE_LIMITED',
    message: 'Rate limit of 30 requests per minute exceeded',
    summary: "Over the citizen's PACIENTE_POR_MINUTO",
  },
  {
    code: 'RATE_LIMITED',
    name: 'RATE_LIMITED_address',
    message: 'Rate limit of 120 requests per minute exceeded',
    summary: "Over the client address's PACIENTE_POR_IP_POR_MINUTO",
  },
  {
    code: 'UPSTREAM_UNAVAILABLE',
    message: 'The citizen identity provider is unavailable',
    summary: "Mi Argentina's key set (PACIENTE_JWKS_URL) unreachable",
  },
  { ...ERROR_EXAMPLES.INTERNAL, summary: 'Anything else' },
];

/** Where an operation answers a code otherwise than its default, by operationId. */
export const OPERATION_ERROR_EXAMPLES: Record<string, ErrorExample[]> = {
  healthReady: [
    {
      code: 'SERVICE_UNAVAILABLE',
      message: 'Service not ready',
      details: [{ field: 'database', issue: 'down' }],
    },
  ],
  generarCuir: [
    {
      ...ERROR_EXAMPLES.CUIR_ALREADY_ISSUED,
      summary: 'groupId and itemId issued already (uniqueness policy on)',
    },
    {
      code: 'CUIR_ALREADY_ISSUED',
      name: 'CUIR_ALREADY_ISSUED_another_client',
      message: 'This CUIR was already issued to another client',
      summary: 'The same CUIR was issued to another client (whatever the policy)',
    },
  ],
  registrarReceta: [upstream('refeps')],
  listarRecetas: LISTING,
  listarVerificaciones: LISTING,
  listarEventosReceta: [notFound('Transaction')],
  obtenerReceta: [notFound('Transaction')],
  obtenerTransaccion: [notFound('Transaction')],
  anularReceta: [
    notFound('Prescription'),
    {
      code: 'RECETA_DISPENSADA',
      message: 'The prescription was dispensed (in part or whole); reverse the dispensation first',
    },
    {
      code: 'RECETA_RESERVADA',
      message: 'A dispenser holds a reservation on the prescription; try again once it ends',
    },
  ],
  verificarRecetaPorCuir: [notFound('Prescription'), ...UNKNOWN_CUIRS],
  reservarReceta: [notFound('Prescription'), ...UNKNOWN_CUIRS],
  liberarReserva: [
    {
      code: 'VALIDATION_FAILED',
      message: 'This operation takes no request body',
      details: [{ field: '(body)', issue: 'must be absent: a DELETE takes no body' }],
    },
    notFound('Reservation'),
    ...UNKNOWN_CUIRS,
  ],
  dispensarReceta: [notFound('Prescription'), ...UNKNOWN_CUIRS],
  obtenerDispensa: [notFound('Dispensation')],
  revertirDispensa: [notFound('Dispensation'), ...UNKNOWN_CUIRS],
  verificarProfesional: [
    { code: 'NOT_FOUND', message: 'Profesional not found in the registry' },
    {
      code: 'NOT_FOUND',
      name: 'NOT_FOUND_jurisdiccion',
      message: 'The professional holds no licence in that jurisdiction',
      summary: 'No licence in the requested jurisdiccion',
    },
    upstream('refeps'),
  ],
  verificarPersona: [
    { code: 'NOT_FOUND', message: 'Person not found in the registry' },
    upstream('renaper'),
  ],
  descargarDocumentoReceta: [notFound('Prescription'), RENDERERS_BUSY],
  obtenerRecetaPaciente: CITIZEN,
  descargarDocumentoRecetaPaciente: [...CITIZEN, RENDERERS_BUSY],
};
