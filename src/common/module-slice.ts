import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
import type { SettingsSlice } from '../config/settings.js';
import type { PartitionedTable } from '../database/particiones/particionadas.js';
import type { ErrorExample } from './errors/error-example.js';
import { ErrorCodeTable, registerErrorCodes } from './errors/error-codes.js';
import { registerScopes, ScopeTable } from './http/scopes.js';
import { namingProblems } from './naming.js';

/**
 * Everything a module brings to the central tables, declared in its `<module>.slice.ts` with
 * `defineSlice` and listed in src/slices.ts.
 */
export interface ModuleSlice {
  /** The module's folder under src/ (`obras-sociales`). */
  name: string;
  /**
   * Its Nest module, loaded only when the app is built (`() => import('./x.module.js').then((m) =>
   * m.XModule)`), so reading the slices (the CLI, the settings docs) loads no controller or
   * service. None for a module only other modules import (webhooks, ministerio, idempotency).
   */
  module?: () => Promise<Type<unknown>>;
  scopes?: ScopeTable;
  /** Scopes `--scopes all` leaves out: granted to a client only by their names. */
  scopesByNameOnly?: ScopeTable;
  errors?: ErrorCodeTable;
  /** The default OpenAPI example of each of its codes. */
  errorExamples?: readonly ErrorExample[];
  settings?: readonly SettingsSlice<unknown>[];
  migrations?: readonly (new () => MigrationInterface)[];
  /** Tables the service's role may only SELECT and INSERT, or only SELECT (runtime-grants.ts). */
  appendOnlyTables?: readonly string[];
  readOnlyTables?: readonly string[];
  /** Its tables partitioned by month (SPEC 10; database/particiones/). */
  partitionedTables?: readonly PartitionedTable[];
  /** The queues its `@QueueJob()` classes work: the migrations create them (queue/queue-schema.ts). */
  queues?: readonly string[];
  /** The OpenAPI tags its controllers use, name → description, in display order. */
  tags?: Readonly<Record<string, string>>;
  /** Stable operationIds of its routes: `'GET /v1/obras-sociales': 'buscarObrasSociales'`. */
  operationIds?: Readonly<Record<string, string>>;
}

/** What breaks the naming rules (common/naming.ts) in one slice. */
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

/** What two slices declare twice. */
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

/** Checks every slice and makes their scopes, error codes, tags and operationIds known (at start). */
export function registerSlices(slices: readonly ModuleSlice[]): void {
  const problems = [...slices.flatMap((s) => sliceProblems(s)), ...clashes(slices)];
  if (problems.length > 0) throw new Error(`module slices: ${problems.join('; ')}`);
  for (const s of slices) {
    registerScopes(s.scopes);
    registerScopes(s.scopesByNameOnly, true);
    registerErrorCodes(s.errors);
    registered.push(s);
  }
}

/** Every registered slice, in order (the OpenAPI document reads tags and ids here). */
export const registeredSlices = (): readonly ModuleSlice[] => registered;
