import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { medicamentosSettings } from './medicamentos.settings.js';
import { MedicamentosMirror1763800004000 } from './migrations/1763800004000-MedicamentosMirror.js';

export const MEDICAMENTOS_SCOPES = defineScopes({
  'medicamentos:read': 'search the medication catalogue',
});

/** A prescribed or dispensed code not in the catalogue mirror (SPEC 9.2; medicamentos.public.ts). */
export const MEDICAMENTOS_ERRORS = defineErrorCodes({
  MEDICAMENTO_DESCONOCIDO: 422,
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof MEDICAMENTOS_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof MEDICAMENTOS_ERRORS, number> {}
}

/** The medication catalogue's mirror, its sync and search. */
export const medicamentosSlice = defineSlice({
  name: 'medicamentos',
  module: () => import('./medicamentos.module.js').then((m) => m.MedicamentosModule),
  scopes: MEDICAMENTOS_SCOPES,
  errors: MEDICAMENTOS_ERRORS,
  settings: [medicamentosSettings],
  migrations: [MedicamentosMirror1763800004000],
  tags: { medicamentos: 'Search of the official medication catalogue (a local mirror).' },
  operationIds: { 'GET /v1/medicamentos/buscar': 'buscarMedicamentos' },
});
