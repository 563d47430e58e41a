import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { Scope } from './scopes.js';

export const SCOPES_KEY = 'required-scopes';
export const PUBLIC_KEY = 'public-route';

/** The OpenAPI security schemes: both headers are needed, together. */
export const API_KEY_SCHEME = 'ApiKey';
export const API_SECRET_SCHEME = 'ApiSecret';
/** The citizen's Mi Argentina token (a Bearer JWT) on the patient's routes (contract §8). */
export const CITIZEN_TOKEN_SCHEME = 'MiArgentina';

/**
 * The scope a route needs, for the guard and the OpenAPI document: one requirement holding both
 * headers (two would mean "either"), the scope as `x-required-scope` (OAS 3.0 has none here).
 */
export const RequireScope = (scope: Scope) =>
  applyDecorators(
    SetMetadata(SCOPES_KEY, [scope]),
    ApiSecurity({ [API_KEY_SCHEME]: [], [API_SECRET_SCHEME]: [] }),
    ApiExtension('x-required-scope', scope),
  );

/** Routes that need no API credentials (health, metrics; the patient's own token routes). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
