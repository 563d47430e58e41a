/**
 * Stable operationIds, keyed by method and path (the public contract), never by controller or
 * handler names, which change with refactors: generated clients name their functions after
 * these. A route missing here gets one derived from its method and path (`getV1DispensasId…`),
 * stable as long as the route is; give it a name here when it lands.
 */
export const OPERATION_IDS: Record<string, string> = {
  'POST /v1/cuir/generar': 'generarCuir',
  'POST /v1/recetas/registrar': 'registrarReceta',
  'GET /v1/recetas/listar': 'listarRecetas',
  'GET /v1/recetas/{id_transaccion}': 'obtenerReceta',
  'GET /v1/transacciones/{id_transaccion}': 'obtenerTransaccion',
  'GET /v1/recetas/verificar/{cuir}': 'verificarRecetaPorCuir',
  'GET /v1/verificaciones': 'listarVerificaciones',
  'POST /v1/profesional/verificar': 'verificarProfesional',
  'POST /v1/persona/verificar': 'verificarPersona',
  'GET /v1/medicamentos/buscar': 'buscarMedicamentos',
  // Contract §7 and §8, for when those routes land under these paths.
  'POST /v1/recetas/{id_transaccion}/anular': 'anularReceta',
  'GET /v1/recetas/{id_transaccion}/eventos': 'listarEventosReceta',
  'GET /v1/recetas/{id_transaccion}/documento': 'descargarDocumentoReceta',
  'POST /v1/dispensas/reservas': 'reservarReceta',
  'DELETE /v1/dispensas/reservas/{reserva_id}': 'liberarReserva',
  'POST /v1/dispensas': 'dispensarReceta',
  'POST /v1/dispensas/{id_dispensa}/revertir': 'revertirDispensa',
  'GET /v1/dispensas/{id_dispensa}': 'obtenerDispensa',
  'GET /v1/paciente/recetas/{cuir}': 'obtenerRecetaPaciente',
  'GET /v1/paciente/recetas/{cuir}/documento': 'descargarDocumentoRecetaPaciente',
  'GET /r/{cuir}': 'verificarRecetaPublica',
  'GET /v1/fiscalizacion/recetas': 'listarRecetasFiscalizacion',
  'GET /v1/fiscalizacion/recetas/{cuir}': 'obtenerRecetaFiscalizacion',
  // Outside /v1: operations, no credentials.
  'GET /health/live': 'healthLive',
  'GET /health/ready': 'healthReady',
  'GET /metrics': 'metrics',
  'GET /openapi.json': 'openapiDocument',
  'GET /openapi.yaml': 'openapiDocumentYaml',
  'GET /docs': 'apiDocs',
};

/** `GET /v1/dispensas/{id_dispensa}` → `getV1DispensasIdDispensa`. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

export function operationIdFor(method: string, path: string): string {
  return OPERATION_IDS[`${method.toUpperCase()} ${path}`] ?? derivedOperationId(method, path);
}
