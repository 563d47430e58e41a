import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { Fiscalizacion1795728500000 } from './migrations/1795728500000-Fiscalizacion.js';

/**
 * The health authority's scope. It reaches every client's restricted prescriptions (of the
 * authority's jurisdictions), so `--scopes all` never includes it: it is granted by its name,
 * with `--jurisdicciones`.
 */
export const FISCALIZACION_SCOPES = defineScopes({
  'fiscalizacion:read':
    'health authorities: the restricted prescriptions (CUIR type 01, subtype 03 or 04) of their jurisdictions, with patient, diagnosis and dispensations; granted only by name, with --jurisdicciones',
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof FISCALIZACION_SCOPES, true> {}
}

/** The health authority's copy of restricted prescriptions (SPEC 9.3). */
export const fiscalizacionSlice = defineSlice({
  name: 'fiscalizacion',
  module: () => import('./fiscalizacion.module.js').then((m) => m.FiscalizacionModule),
  scopesByNameOnly: FISCALIZACION_SCOPES,
  migrations: [Fiscalizacion1795728500000],
  tags: {
    fiscalizacion:
      "Health authorities (scope fiscalizacion:read, granted only by name): the restricted prescriptions of their jurisdictions, with patient, diagnosis and dispensations (Res. MS 2214/2025's digital duplicate).",
  },
  operationIds: {
    'GET /v1/fiscalizacion/recetas': 'listarRecetasFiscalizacion',
    'GET /v1/fiscalizacion/recetas/{cuir}': 'obtenerRecetaFiscalizacion',
  },
});
