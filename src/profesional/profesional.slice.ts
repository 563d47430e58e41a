import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { profesionalSettings } from './profesional.settings.js';

export const PROFESIONAL_SCOPES = defineScopes({
  'profesional:read': "verify a professional's enablement (REFEPS)",
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof PROFESIONAL_SCOPES, true> {}
}

/** Professional enablement in REFEPS (through SISA), behind a cache. */
export const profesionalSlice = defineSlice({
  name: 'profesional',
  module: () => import('./profesional.module.js').then((m) => m.ProfesionalModule),
  scopes: PROFESIONAL_SCOPES,
  settings: [profesionalSettings],
  tags: { profesional: 'Professional enablement in REFEPS (through SISA).' },
  operationIds: { 'POST /v1/profesional/verificar': 'verificarProfesional' },
});
