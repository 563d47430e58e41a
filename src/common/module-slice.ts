import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
import type { SettingsSlice } from '../config/settings.js';
import type { PartitionedTable } from '../database/particiones/particionadas.js';
import type { ErrorExample } from './errors/error-example.js';
import { ErrorCodeTable, registerErrorCodes } from './errors/error-codes.js';
import { registerScopes, ScopeTable } from './http/access.js';
import { namingProblems } from './naming.js';

/**
 * Everything a module brings to the central tables: its Nest module, the scopes its routes
 * require, the error codes it answers with (and their default OpenAPI examples), its settings,
 * migrations, OpenAPI tags and operationIds. Each module declares one in its `<module>.slice.ts`
 * with `defineSlice`; the composition root (src/slices.ts) lists them, one line per module, and
 * the app module, the migrations, the OpenAPI document and the settings docs compose them.
 */
export interface ModuleSlice {
  /** The module's folder under src/ (`obras-sociales`). */
  name: string;
  /**
   * The Nest module the app imports (app.module.ts). None for a module that only other modules
   * import (webhooks, ministerio, idempotency).
   */
  module?: Type<unknown>;
  scopes?: ScopeTable;
  /** Scopes `--scopes all` leaves out: granted to a client only by their names. */
  scopesByNameOnly?: ScopeTable;
  errors?: ErrorCodeTable;
  /** The default OpenAPI example of each of its codes (message and `details` as thrown). */
  errorExamples?: readonly ErrorExample[];
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
  /**
   * Its tables partitioned by month (SPEC 10; database/particiones/): the service creates their
   * partitions ahead of need, `npm run cli -- particiones` lists and drops them.
   */
  partitionedTables?: readonly PartitionedTable[];
  /**
   * The job queues its `@QueueJob()` classes work (their `name`): the migrations create them
   * (queue/queue-schema.ts), since the service's role may create no table.
   */
  queues?: readonly string[];
  /** The OpenAPI tags its controllers use (`@ApiTags`), name → description, in display order. */
  tags?: Readonly<Record<string, string>>;
  /** Stable operationIds of its routes: `'GET /v1/obras-sociales': 'buscarObrasSociales'`. */
  operationIds?: Readonly<Record<string, string>>;
}

/** What breaks the naming rules (common/naming.ts) in one slice, one line each. */
export function sliceProblems(s: ModuleSlice): string[] {
  return [
    ...namingProblems('module', [s.name]),
    ...namingProblems('scope', Object.keys({ ...s.scopes, ...s.scopesByNameOnly })),
    ...namingProblems('errorCode', Object.keys(s.errors ?? {})),
    ...namingProblems('tag', Object.keys(s.tags ?? {})),
    ...Object.keys(s.operationIds ?? {})
      .filter((route) => !/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/.test(route))
      .map((route) => `operationIds key ${JSON.stringify(route)} is not "<METHOD> <path>"`),
    ...(s.errorExamples ?? [])
      .filter((e) => !(s.errors && e.code in s.errors))
      .map((e) => `errorExamples: ${e.code} is not one of the slice's error codes`),
  ];
}

/** Declares a module's slice; a name breaking the naming rules throws, naming the slice. */
export function defineSlice<T extends ModuleSlice>(slice: T): T {
  const problems = sliceProblems(slice);
  if (problems.length > 0)
    throw new Error(`slice ${slice.name}: ${problems.join('; ')} (src/common/naming.ts)`);
  return slice;
}

/** What two slices declare twice (a module, a tag, a route's operationId, an operationId). */
function clashes(slices: readonly ModuleSlice[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const once = (kind: string, key: string, owner: string) => {
    const first = seen.get(`${kind}\0${key}`);
    if (first !== undefined) problems.push(`${kind} ${key} is declared by ${first} and ${owner}`);
    else seen.set(`${kind}\0${key}`, owner);
  };
  for (const s of slices) {
    once('slice', s.name, s.name);
    for (const tag of Object.keys(s.tags ?? {})) once('tag', tag, s.name);
    for (const [route, id] of Object.entries(s.operationIds ?? {})) {
      once('route', route, s.name);
      once('operationId', id, s.name);
    }
  }
  return problems;
}

const registered: ModuleSlice[] = [];

/**
 * Checks every slice (naming rules, nothing declared twice) and makes their scopes, error codes,
 * tags, operationIds and error examples known (once, at start).
 */
export function registerSlices(slices: readonly ModuleSlice[]): void {
  const problems = [...slices.flatMap((s) => sliceProblems(s)), ...clashes(slices)];
  if (problems.length > 0) throw new Error(`module slices: ${problems.join('; ')}`);
  for (const s of slices) {
    if (s.scopes) registerScopes(s.scopes);
    if (s.scopesByNameOnly) registerScopes(s.scopesByNameOnly, { byNameOnly: true });
    if (s.errors) registerErrorCodes(s.errors);
    registered.push(s);
  }
}

/** Every registered slice, in registration order (the OpenAPI document reads tags and ids here). */
export const registeredSlices = (): readonly ModuleSlice[] => registered;
