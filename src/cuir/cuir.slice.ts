import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { cuirSettings } from './cuir.settings.js';
import { IssuedCuirs1763800002000 } from './migrations/1763800002000-IssuedCuirs.js';
import { CuirOwnership1763800006100 } from './migrations/1763800006100-CuirOwnership.js';

export const CUIR_SCOPES = defineScopes({ 'cuir:write': 'generate CUIRs' });

export const CUIR_ERRORS = defineErrorCodes({
  CUIR_ALREADY_ISSUED: 409,
  CUIR_RULES_VIOLATED: 422,
  CUIR_NOT_OWNED: 422,
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof CUIR_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof CUIR_ERRORS, number> {}
}

/** CUIR generation and its ledger (contract §3). */
export const cuirSlice = defineSlice({
  name: 'cuir',
  module: () => import('./cuir.module.js').then((m) => m.CuirModule),
  scopes: CUIR_SCOPES,
  errors: CUIR_ERRORS,
  settings: [cuirSettings],
  migrations: [IssuedCuirs1763800002000, CuirOwnership1763800006100],
  tags: { cuir: 'CUIR generation (Res. MS 2214/2025, Annex IV).' },
  operationIds: { 'POST /v1/cuir/generar': 'generarCuir' },
});
