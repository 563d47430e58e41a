import { defineScopes } from '../common/http/scopes.js';
import { defineSlice } from '../common/module-slice.js';
import { personaSettings } from './persona.settings.js';

export const PERSONA_SCOPES = defineScopes({
  'persona:read': "verify a citizen's identity (RENAPER)",
});

declare module '../common/http/scopes.js' {
  interface Scopes extends Record<keyof typeof PERSONA_SCOPES, true> {}
}

/** Citizen identity in RENAPER (through SISA), cached briefly. */
export const personaSlice = defineSlice({
  name: 'persona',
  module: () => import('./persona.module.js').then((m) => m.PersonaModule),
  scopes: PERSONA_SCOPES,
  settings: [personaSettings],
  tags: { persona: 'Citizen identity in RENAPER (through SISA).' },
  operationIds: { 'POST /v1/persona/verificar': 'verificarPersona' },
});
