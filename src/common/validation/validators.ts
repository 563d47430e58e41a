import { Transform } from 'class-transformer';
import { registerDecorator, ValidationOptions } from 'class-validator';
import { parseCuir } from '../../cuir/cuir-format.js';

/** ISO 8601 date-time with an explicit offset (`Z` or ±hh:mm); a bare local time is ambiguous. */
const ISO_WITH_OFFSET =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;

/** Parses an ISO 8601 date-time with offset, or returns undefined (also for impossible dates). */
export function parseIsoWithOffset(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value)) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  // Reject calendar overflow such as 2025-02-30 (Date would roll it into March).
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d ? date : undefined;
}

export function IsIsoDateTimeWithOffset(opts: { maxFutureMs?: number } & ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIsoDateTimeWithOffset',
      target: target.constructor,
      propertyName,
      options: opts,
      validator: {
        validate(value: unknown) {
          const date = parseIsoWithOffset(value);
          if (!date) return false;
          return opts.maxFutureMs === undefined || date.getTime() <= Date.now() + opts.maxFutureMs;
        },
        defaultMessage: () =>
          opts.maxFutureMs === undefined
            ? 'must be an ISO 8601 date-time with offset (e.g. 2026-11-22T10:30:00-03:00)'
            : `must be an ISO 8601 date-time with offset (e.g. 2026-11-22T10:30:00-03:00), not more than ${Math.round(opts.maxFutureMs / 60000)} minutes in the future`,
      },
    });
}

/** A structurally valid 41-digit CUIR (the CUIR module is the single source of truth). */
export function IsCuir(opts: ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCuir',
      target: target.constructor,
      propertyName,
      options: opts,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseCuir(value).ok,
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          if (typeof value !== 'string') return 'must be a string of 41 digits';
          const parsed = parseCuir(value);
          return parsed.ok
            ? ''
            : `must be a valid CUIR: ${parsed.issues.map((i) => (i.field === 'cuir' ? i.issue : `${i.field} ${i.issue}`)).join('; ')}`;
        },
      },
    });
}

const DNI_WITH_DOTS = /^\d{1,2}\.\d{3}\.\d{3}$/;

/** Argentine DNI: `30.111.222` is accepted on input and kept as `30111222`. */
export const NormalizeDni = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && DNI_WITH_DOTS.test(value) ? value.replaceAll('.', '') : value,
  );
