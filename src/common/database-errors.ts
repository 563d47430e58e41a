import { SUFIJO_PARTICION } from '../database/particiones/periodos.js';

/** PostgreSQL's unique_violation, optionally on a named constraint (a partition's counts as its table's). */
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

/** Socket-level codes; PostgreSQL's connection_exception class (08xxx) and shutdowns (57P01-57P03). */
const CONNECTION_CODES =
  /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|08...|57P0[1-3])$/;
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Driver not Connected/i;

/** `test` holds for `err` or the driver error it wraps. */
function anyLayer(
  err: unknown,
  test: (e: { code?: unknown; message?: unknown }) => boolean,
): boolean {
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (test(e)) return true;
  return e.driverError !== undefined && e.driverError !== e && anyLayer(e.driverError, test);
}

/** The database could not be reached or dropped the connection (as opposed to refusing a statement). */
export const isConnectionFailure = (err: unknown): boolean =>
  anyLayer(
    err,
    (e) =>
      (typeof e.code === 'string' && CONNECTION_CODES.test(e.code)) ||
      (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)),
  );

/**
 * No connection of the pool came free within `connectionTimeoutMillis`: the service is
 * saturated, not broken (a new connection that does not open in time fails otherwise).
 */
export const isPoolExhausted = (err: unknown): boolean =>
  anyLayer(err, (e) => e.message === 'timeout exceeded when trying to connect');
