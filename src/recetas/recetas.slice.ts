import type { ModuleSlice } from '../common/module-slice.js';
import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/access.js';
import { Recetas1763800003000 } from './migrations/1763800003000-Recetas.js';
import { RecetaVida1764000000000 } from './migrations/1764000000000-RecetaVida.js';
import { RecetasPendingIndex1764100000000 } from './migrations/1764100000000-RecetasPendingIndex.js';
import { RecetaContenido1795728400000 } from './migrations/1795728400000-RecetaContenido.js';
import { recetasSettings } from './recetas.settings.js';

export const RECETAS_SCOPES = defineScopes({
  'recetas:write': 'register and cancel prescriptions',
  'recetas:read': "list, read and track the client's own prescriptions",
});

export const RECETAS_ERRORS = defineErrorCodes({
  CUIR_ALREADY_REGISTERED: 409,
  PROFESSIONAL_NOT_ENABLED: 422,
  // Cancellation (contract §7); dispensas declares them too, with the same statuses.
  RECETA_DISPENSADA: 409,
  RECETA_RESERVADA: 409,
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof RECETAS_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof RECETAS_ERRORS, number> {}
}

/** Registration, consultation, cancellation and ministry notification of prescriptions (contract §3, §4, §7). */
export const recetasSlice: ModuleSlice = {
  name: 'recetas',
  scopes: RECETAS_SCOPES,
  errors: RECETAS_ERRORS,
  settings: [recetasSettings],
  // Also holds the Idempotency-Key table: committed migrations are never split.
  migrations: [
    Recetas1763800003000,
    RecetaVida1764000000000,
    RecetasPendingIndex1764100000000,
    RecetaContenido1795728400000,
  ],
};
