import type { ValidationArguments } from 'class-validator';
import { parseIsoWithOffset } from '../../../common/validation/validators.js';
import { customValidator } from '../../../common/validation/validator-schemas.js';
import { CALENDAR_DATE_PATTERN } from '../../contenido/contenido-patterns.js';
import { inicioVigenciaProblem, isCalendarDate } from '../../vida/vigencia.js';

/**
 * `fecha_inicio_vigencia` (contract §3, §7): from the date of the body's `fecha_creacion` in
 * Argentina time to 365 days after (only the format when fecha_creacion is invalid).
 */
export const IsInicioVigencia = customValidator(
  'isInicioVigencia',
  { format: 'date', pattern: CALENDAR_DATE_PATTERN, minLength: 10, maxLength: 10 },
  () => ({
    validate: (value: unknown, args: ValidationArguments) => problem(value, args) === null,
    defaultMessage: (args: ValidationArguments) =>
      problem(args.value, args) ?? 'must be a calendar date YYYY-MM-DD',
  }),
);

function problem(value: unknown, args: ValidationArguments): string | null {
  if (!isCalendarDate(value)) return 'must be a calendar date YYYY-MM-DD';
  const creada = parseIsoWithOffset((args.object as { fecha_creacion?: unknown }).fecha_creacion);
  return creada ? inicioVigenciaProblem(creada, value) : null;
}
