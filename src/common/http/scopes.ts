import { assertNames } from '../naming.js';

/**
 * The scopes' tables, without Nest or Swagger: a slice declares its scopes here and the
 * credentials tool reads them, neither loading the decorators of access.ts.
 */

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
