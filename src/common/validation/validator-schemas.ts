import type { SchemaObject } from '@nestjs/swagger';
import {
  getMetadataStorage,
  ValidateBy,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';

/**
 * What a property's class-validator decorators say in OpenAPI terms, read from their metadata:
 * the swagger plugin reads only limits written as literals.
 */

type Describe = (constraints: unknown[]) => SchemaObject;

const sourceOf = (p: unknown) => (p instanceof RegExp ? p.source : String(p));

/** Built-in validators, by the name class-validator records. */
const BUILT_IN: Record<string, Describe> = {
  isInt: () => ({ type: 'integer', format: 'int32' }),
  min: ([n]) => ({ minimum: n as number }),
  max: ([n]) => ({ maximum: n as number }),
  minLength: ([n]) => ({ minLength: n as number }),
  maxLength: ([n]) => ({ maxLength: n as number }),
  isLength: ([min, max]) => ({
    minLength: min as number,
    ...(max === undefined ? {} : { maxLength: max as number }),
  }),
  matches: ([pattern]) => ({ pattern: sourceOf(pattern), ...lengthBounds(sourceOf(pattern)) }),
  isIn: ([values]) => ({ enum: [...(values as unknown[])] }),
  isUuid: () => ({ format: 'uuid' }),
  isIso8601: () => ({ format: 'date-time' }),
  arrayMinSize: ([n]) => ({ minItems: n as number }),
  arrayMaxSize: ([n]) => ({ maxItems: n as number }),
  arrayUnique: () => ({ uniqueItems: true }),
};

/** The lengths an anchored pattern of literals, classes, groups and quantifiers admits. */
export function lengthBounds(pattern: string): { minLength?: number; maxLength?: number } {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return {};
  let i = 1;
  const end = pattern.length - 1;
  type Range = [number, number];
  const fail = (): never => {
    throw new Error('unsupported');
  };
  const alternation = (): Range => {
    let range = sequence();
    while (pattern[i] === '|') {
      i++;
      const next = sequence();
      range = [Math.min(range[0], next[0]), Math.max(range[1], next[1])];
    }
    return range;
  };
  const sequence = (): Range => {
    const range: Range = [0, 0];
    while (i < end && pattern[i] !== '|' && pattern[i] !== ')') {
      const [min, max] = atom();
      const [qMin, qMax] = quantifier();
      range[0] += min * qMin;
      range[1] += max * qMax;
    }
    return range;
  };
  const atom = (): Range => {
    const c = pattern[i];
    if (c === '(') {
      i++;
      if (pattern[i] === '?') {
        if (pattern[i + 1] !== ':') fail();
        i += 2;
      }
      const range = alternation();
      if (pattern[i] !== ')') fail();
      i++;
      return range;
    }
    if (c === '[') {
      i++;
      while (i < end && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      if (pattern[i] !== ']') fail();
      i++;
      return [1, 1];
    }
    if (c === '\\') {
      if (/[1-9bBkpPu]/.test(pattern[i + 1] ?? '')) fail();
      i += 2;
      return [1, 1];
    }
    if ('^$*+?{'.includes(c)) fail();
    i++;
    return [1, 1];
  };
  const quantifier = (): Range => {
    const c = pattern[i];
    let range: Range = [1, 1];
    if (c === '?') range = [0, 1];
    else if (c === '*') range = [0, Infinity];
    else if (c === '+') range = [1, Infinity];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!m) fail();
      const min = Number(m![1]);
      const max = m![2] === undefined ? min : m![3] === '' ? Infinity : Number(m![3]);
      i += m![0].length;
      return lazy([min, max]);
    } else return range;
    i++;
    return lazy(range);
  };
  const lazy = (range: Range): Range => {
    if (pattern[i] === '?') i++;
    return range;
  };
  try {
    const [minLength, maxLength] = alternation();
    if (i !== end) return {};
    return {
      ...(minLength > 0 ? { minLength } : {}),
      ...(Number.isFinite(maxLength) ? { maxLength } : {}),
    };
  } catch {
    return {};
  }
}

/** Custom validators, registered by the file that defines each (its own limits, stated once). */
const CUSTOM = new Map<string, SchemaObject>();

interface CustomCheck {
  validate(value: unknown, args: ValidationArguments): boolean;
  defaultMessage(args: ValidationArguments): string;
}

/** A custom class-validator decorator: its name, its OpenAPI `schema`, its check from its options. */
export function customValidator<O extends ValidationOptions = ValidationOptions>(
  name: string,
  schema: SchemaObject,
  check: (options: O) => CustomCheck,
): (options?: O) => PropertyDecorator {
  CUSTOM.set(name, schema);
  return (options = {} as O) => ValidateBy({ name, validator: check(options) }, options);
}

/** The schema keywords `target`'s validators give each of its properties. */
export function validatorSchemas(
  target: abstract new (...args: never[]) => unknown,
): Map<string, SchemaObject> {
  const byProperty = new Map<string, SchemaObject>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
    if (m.each || !m.name) continue;
    const schema = BUILT_IN[m.name]?.(m.constraints ?? []) ?? CUSTOM.get(m.name);
    if (!schema) continue;
    byProperty.set(m.propertyName, { ...byProperty.get(m.propertyName), ...schema });
  }
  return byProperty;
}
