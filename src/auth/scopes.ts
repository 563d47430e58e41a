import { SetMetadata } from '@nestjs/common';

/** One scope per endpoint family (SPEC 2). */
export const SCOPES = [
  'cuir:write',
  'recetas:write',
  'recetas:read',
  'profesional:read',
  'persona:read',
  'medicamentos:read',
  // Dispensers (pharmacies, the citizen app): verify any prescription by its CUIR.
  'recetas:verify',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

export const SCOPES_KEY = 'required-scopes';
export const PUBLIC_KEY = 'public-route';

/** The scope a route requires; every non-public route must declare one. */
export const Scopes = (...scopes: Scope[]) => SetMetadata(SCOPES_KEY, scopes);

/** Routes outside /v1 that need no credentials (health, metrics). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
