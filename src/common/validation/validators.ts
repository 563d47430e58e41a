import { Transform } from 'class-transformer';
import type { ValidationOptions } from 'class-validator';
import { customValidator } from './validator-schemas.js';

/**
 * ISO 8601 date-time with an explicit offset (`Z` or ±hh:mm); a bare local time is ambiguous.
 * Exported so the OpenAPI document states the same pattern (patterns.ts).
 */
export const ISO_WITH_OFFSET =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;

/** The longest date-time ISO_WITH_OFFSET admits: nanoseconds and a ±hh:mm offset. */
export const DATE_TIME_MAX_LENGTH = '2026-11-22T10:30:00.123456789+03:00'.length;

/**
 * The earliest year a date-time may be written with. PostgreSQL's timestamptz cannot hold year
 * 0000 (JavaScript's Date can: such a value passed validation and failed the INSERT with a
 * 500), and no prescription or query of this service is about anything before 1900. The
 * four-digit year caps the other end at 9999, which timestamptz holds with any offset.
 */
export const MIN_YEAR = 1900;
export const DATE_RANGE_TEXT = `from year ${MIN_YEAR} to 9999`;

/**
 * Whether a query's date-time reads as one whose offset's "+" was sent unencoded: a query string
 * decodes "+" as a space, so `…T00:00:00+00:00` arrives as `…T00:00:00 00:00`.
 */
export function plusReadAsSpace(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)? \d{2}(:?\d{2})?$/.test(value)
  );
}

/**
 * Parses an ISO 8601 date-time with offset written from year MIN_YEAR to 9999, or returns
 * undefined (also for impossible dates).
 */
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

/**
 * A query number written as decimal digits only. Query values arrive as strings, and
 * `Number()` also reads "0x10", "1e2", "+5", " 5" and "5.0": anything but plain digits stays
 * a string here and fails the @IsInt that follows.
 */
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

/** A calendar date written YYYY-MM-DD (2026-02-30 is not one); `format: date` in the document. */
export const IsCalendarDate = customValidator('isCalendarDate', { format: 'date' }, () => ({
  validate: (value: unknown) =>
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value,
  defaultMessage: () => 'must be a calendar date YYYY-MM-DD',
}));
