import { SUFIJO_PARTICION } from '../database/particiones/periodos.js';

/**
 * PostgreSQL's unique_violation, optionally on a named constraint or index — on a partitioned
 * table, the violation names the partition's index, which counts as the table's.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as {
    code?: string;
    constraint?: string;
    driverError?: { code?: string; constraint?: string };
  };
  const code = e?.code ?? e?.driverError?.code;
  const name = e?.constraint ?? e?.driverError?.constraint;
  return (
    code === '23505' &&
    (constraint === undefined ||
      name === constraint ||
      (name !== undefined && name.replace(SUFIJO_PARTICION, '') === constraint))
  );
}

/** Socket-level codes and PostgreSQL's connection_exception / shutdown classes. */
const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  '08000',
  '08001',
  '08003',
  '08006',
  '57P01',
  '57P02',
  '57P03',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Driver not Connected/i;

/** The database could not be reached or dropped the connection (as opposed to refusing a statement). */
export function isConnectionFailure(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  return e.driverError !== undefined && e.driverError !== e && isConnectionFailure(e.driverError);
}

/**
 * pg-pool's error for a request that waited `connectionTimeoutMillis` for a connection while
 * every connection of the pool was busy. (A new connection that does not open in time fails
 * otherwise: "Connection terminated due to connection timeout".)
 */
const POOL_WAIT_TIMED_OUT = 'timeout exceeded when trying to connect';

/** No connection of the pool came free in time: the service is saturated, not broken. */
export function isPoolExhausted(err: unknown): boolean {
  const e = err as { message?: unknown; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.message === POOL_WAIT_TIMED_OUT) return true;
  return e.driverError !== undefined && e.driverError !== e && isPoolExhausted(e.driverError);
}
