import type { SchemaObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

/**
 * What a property's class-validator decorators say in OpenAPI terms, read from class-validator's
 * own metadata at run time: the one place a limit is written is its decorator. The swagger
 * plugin (src/metadata.ts) gives types, `required`, descriptions and examples, and reads limits
 * too, but only those written as literals; this reads the rest (a constant pattern, a shared
 * `Length`, integers, custom validators), with the values the validation pipe uses.
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
  matches: ([pattern]) => ({ pattern: sourceOf(pattern) }),
  isIn: ([values]) => ({ enum: [...(values as unknown[])] }),
  isUUID: () => ({ format: 'uuid' }),
  arrayMinSize: ([n]) => ({ minItems: n as number }),
  arrayMaxSize: ([n]) => ({ maxItems: n as number }),
  arrayUnique: () => ({ uniqueItems: true }),
};

/** Custom validators, registered by the file that defines each (its own limits, stated once). */
const CUSTOM = new Map<string, SchemaObject>();

/** Declares what the custom validator `name` accepts, for the OpenAPI document. */
export function describeValidator(name: string, schema: SchemaObject): void {
  CUSTOM.set(name, schema);
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
