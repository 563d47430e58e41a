import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { assertNames } from '../naming.js';

/**
 * Every scope of the program. Each module declares its own in its `<module>.slice.ts` with
 * `defineScopes`, extending this type by declaration merging; the composition root registers
 * them at start (registerScopes), so the credentials tool knows the full list.
 */
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

const catalogue = new Map<string, { description: string; byNameOnly: boolean }>();

/**
 * Makes a module's scopes known. `byNameOnly`: `--scopes all` leaves them out (a scope that
 * reaches other clients' data, like the health authority's, is granted only by its name).
 */
export function registerScopes(table: ScopeTable, opts: { byNameOnly?: boolean } = {}): void {
  for (const [scope, description] of Object.entries(table))
    catalogue.set(scope, { description, byNameOnly: opts.byNameOnly === true });
}

/** Every registered scope, in registration order. */
export const knownScopes = (): Scope[] => [...catalogue.keys()] as Scope[];

/** What `--scopes all` grants: every registered scope but those granted only by name. */
export const allScopes = (): Scope[] =>
  [...catalogue].filter(([, s]) => !s.byNameOnly).map(([scope]) => scope) as Scope[];

export const isScope = (s: string): s is Scope => catalogue.has(s);

export const scopeDescription = (s: string): string | undefined => catalogue.get(s)?.description;

export const SCOPES_KEY = 'required-scopes';
export const PUBLIC_KEY = 'public-route';

/** The OpenAPI security schemes: both headers are needed, together. */
export const API_KEY_SCHEME = 'ApiKey';
export const API_SECRET_SCHEME = 'ApiSecret';
/** The citizen's Mi Argentina token (a Bearer JWT) on the patient's routes (contract §8). */
export const CITIZEN_TOKEN_SCHEME = 'MiArgentina';

/**
 * The scope a route needs, for the guard and for the OpenAPI document at once: one
 * requirement object holding both credential headers (two objects would mean "either"), and
 * the scope as `x-required-scope` (OAS 3.0 allows scopes only on OAuth2 schemes).
 */
export const RequireScope = (scope: Scope) =>
  applyDecorators(
    SetMetadata(SCOPES_KEY, [scope]),
    ApiSecurity({ [API_KEY_SCHEME]: [], [API_SECRET_SCHEME]: [] }),
    ApiExtension('x-required-scope', scope),
  );

/** Routes that need no API credentials (health, metrics; the patient's own token routes). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
