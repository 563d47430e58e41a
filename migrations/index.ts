import { MODULE_SLICES } from '../src/slices.js';
import { Extensions1763800000000 } from './1763800000000-Extensions.js';
import { Particiones1795728799000 } from './1795728799000-Particiones.js';
import { FuncionesFijas1795729000000 } from './1795729000000-FuncionesFijas.js';

/**
 * Migrations that belong to no module: the database's extensions, the months' openings, every
 * function's fixed search_path.
 */
const DATABASE_MIGRATIONS = [
  Extensions1763800000000,
  Particiones1795728799000,
  FuncionesFijas1795729000000,
];

/** The epoch prefix of a migration's name orders it (`Recetas1763800003000`). */
const epochOf = (m: new () => unknown): number => Number(/(\d{13})$/.exec(m.name)?.[1] ?? NaN);

/**
 * Every migration — the database's and each module's (src/<module>/migrations, listed in its
 * slice) — in epoch order, so the build, the tests and the CLI run the same list.
 */
export const MIGRATIONS = [
  ...DATABASE_MIGRATIONS,
  ...MODULE_SLICES.flatMap((s) => s.migrations ?? []),
].sort((a, b) => epochOf(a) - epochOf(b));
