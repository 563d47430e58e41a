import { defineScopes } from '../common/http/access.js';
import { defineSlice } from '../common/module-slice.js';
import { ProfesionalModule } from './profesional.module.js';
import { profesionalSettings } from './profesional.settings.js';

export const PROFESIONAL_SCOPES = defineScopes({
  'profesional:read': "verify a professional's enablement (REFEPS)",
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof PROFESIONAL_SCOPES, true> {}
}

/** Professional enablement in REFEPS (through SISA), behind a cache. */
export const profesionalSlice = defineSlice({
  name: 'profesional',
  module: ProfesionalModule,
  scopes: PROFESIONAL_SCOPES,
  settings: [profesionalSettings],
  tags: { profesional: 'Professional enablement in REFEPS (through SISA).' },
  operationIds: { 'POST /v1/profesional/verificar': 'verificarProfesional' },
});
