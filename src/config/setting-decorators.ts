import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateBy,
} from 'class-validator';

/** One decorator per kind of setting; every setting is optional and arrives as a string. */

/** The decorators on one property, in order (Nest's applyDecorators, without loading Nest). */
const applyDecorators =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorator of decorators) decorator(target, key);
  };

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return value;
};

/** A whole number within [min, max]. */
export const IntSetting = (min: number, max: number) =>
  applyDecorators(IsOptional(), Transform(toInt), IsInt(), Min(min), Max(max));

/** true/false, 1/0, yes/no, on/off. */
export const BoolSetting = () => applyDecorators(IsOptional(), Transform(toBool), IsBoolean());

/** An http(s) URL. */
export const UrlSetting = () =>
  applyDecorators(
    IsOptional(),
    IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }),
  );

/** One of a fixed list. */
export const OneOfSetting = (values: readonly string[]) =>
  applyDecorators(IsOptional(), IsIn(values));

/** A string matching `pattern`; `message` says what is expected. */
export const PatternSetting = (pattern: RegExp, message: string) =>
  applyDecorators(IsOptional(), Matches(pattern, { message }));

/** A number within [min, max], decimals allowed (`0.05` minutes: 3 s, for tests). */
export const DecimalSetting = (min: number, max: number) =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value,
    ),
    ValidateBy({
      name: 'decimalSetting',
      validator: {
        validate: (v: unknown) => typeof v === 'number' && v >= min && v <= max,
        defaultMessage: () => `must be a number from ${min} to ${max} (decimals allowed)`,
      },
    }),
  );
