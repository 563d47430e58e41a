import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { assertNames } from '../naming.js';

/** Every scope of the program: each slice extends it by declaration merging (defineScopes). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Scopes {}

export type Scope = Extract<keyof Scopes, string>;

/** A scope → "what it lets a client do" table, as a module declares it. */
export type ScopeTable = Readonly<Record<string, string>>;

/** Declares a module's scopes; a name breaking the scope rule (common/naming.ts) throws. */
export const defineScopes = <T extends ScopeTable>(table: T): T => {
  assertNames('scope', Object.keys(table), 'defineScopes');
  return table;
};

/** Every registered scope, and whether it is granted by its name only. */
const catalogue = new Map<string, boolean>();

/** Makes a module's scopes known; `byNameOnly` (reaching other clients' data): not in `--scopes all`. */
export function registerScopes(table: ScopeTable = {}, byNameOnly = false): void {
  for (const scope of Object.keys(table)) catalogue.set(scope, byNameOnly);
}

/** Every registered scope, in registration order. */
export const knownScopes = (): Scope[] => [...catalogue.keys()] as Scope[];

/** What `--scopes all` grants: every registered scope but those granted only by name. */
export const allScopes = (): Scope[] =>
  [...catalogue].filter(([, byNameOnly]) => !byNameOnly).map(([scope]) => scope) as Scope[];

export const isScope = (s: string): s is Scope => catalogue.has(s);

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
