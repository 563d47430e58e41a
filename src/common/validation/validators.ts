import { Transform } from 'class-transformer';
import type { ValidationOptions } from 'class-validator';
import { customValidator } from './validator-schemas.js';

/** ISO 8601 date-time with an explicit offset (`Z` or ±hh:mm); a bare local time is ambiguous. */
export const ISO_WITH_OFFSET =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;

/** The longest date-time ISO_WITH_OFFSET admits: nanoseconds and a ±hh:mm offset. */
export const DATE_TIME_MAX_LENGTH = '2026-11-22T10:30:00.123456789+03:00'.length;

/** timestamptz cannot hold year 0000 (Date can), and nothing here predates 1900. */
const MIN_YEAR = 1900;
export const DATE_RANGE_TEXT = `from year ${MIN_YEAR} to 9999`;

/** A query's date-time whose offset's "+" was sent unencoded (and decoded as a space). */
export function plusReadAsSpace(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)? \d{2}(:?\d{2})?$/.test(value)
  );
}

/** An ISO 8601 date-time with offset from year MIN_YEAR to 9999, else undefined. */
export function parseIsoWithOffset(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value)) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  // Reject calendar overflow such as 2025-02-30 (Date would roll it into March).
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  if (y < MIN_YEAR) return undefined;
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d ? date : undefined;
}

export const IsIsoDateTimeWithOffset = customValidator<
  { maxFutureMs?: number } & ValidationOptions
>(
  'isIsoDateTimeWithOffset',
  { format: 'date-time', pattern: ISO_WITH_OFFSET.source, maxLength: DATE_TIME_MAX_LENGTH },
  (opts) => ({
    validate(value: unknown) {
      const date = parseIsoWithOffset(value);
      if (!date) return false;
      return opts.maxFutureMs === undefined || date.getTime() <= Date.now() + opts.maxFutureMs;
    },
    defaultMessage: () =>
      opts.maxFutureMs === undefined
        ? `must be an ISO 8601 date-time with offset (e.g. 2026-11-22T10:30:00-03:00), ${DATE_RANGE_TEXT}`
        : `must be an ISO 8601 date-time with offset (e.g. 2026-11-22T10:30:00-03:00), ${DATE_RANGE_TEXT}, not more than ${Math.round(opts.maxFutureMs / 60000)} minutes in the future`,
  }),
);

/** A query number of decimal digits only (`Number()` also reads "0x10", "1e2", " 5"). */
export const DecimalInt = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value,
  );

const DNI_WITH_DOTS = /^\d{1,2}\.\d{3}\.\d{3}$/;

/** Argentine DNI: `30.111.222` is accepted on input and kept as `30111222`. */
export const NormalizeDni = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && DNI_WITH_DOTS.test(value) ? value.replaceAll('.', '') : value,
  );
