import type { MigrationInterface } from 'typeorm';
import type { SettingsSlice } from '../config/settings.js';
import { ErrorCodeTable, registerErrorCodes } from './errors/error-codes.js';
import { registerScopes, ScopeTable } from './http/access.js';

/**
 * What a module brings besides its Nest module: the scopes its routes require, the error codes
 * it answers with, its settings and its migrations. Each module declares one in its
 * `<module>.slice.ts`; the composition root (src/slices.ts) lists them, one line per module.
 */
export interface ModuleSlice {
  name: string;
  scopes?: ScopeTable;
  /** Scopes `--scopes all` leaves out: granted to a client only by their names. */
  scopesByNameOnly?: ScopeTable;
  errors?: ErrorCodeTable;
  settings?: readonly SettingsSlice<unknown>[];
  /** Migration classes, in the module's own `migrations/` folder. */
  migrations?: readonly (new () => MigrationInterface)[];
  /**
   * Its tables the service's own role may only SELECT and INSERT, and those it may only SELECT
   * (written by operator commands), when the migrations run as another role
   * (DATABASE_MIGRATION_URL; database/runtime-grants.ts). Its other tables: read and write.
   */
  appendOnlyTables?: readonly string[];
  readOnlyTables?: readonly string[];
}

/** Makes every slice's scopes and error codes known (once, at start). */
export function registerSlices(slices: readonly ModuleSlice[]): void {
  for (const s of slices) {
    if (s.scopes) registerScopes(s.scopes);
    if (s.scopesByNameOnly) registerScopes(s.scopesByNameOnly, { byNameOnly: true });
    if (s.errors) registerErrorCodes(s.errors);
  }
}
