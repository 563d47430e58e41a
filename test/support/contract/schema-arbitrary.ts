import fc from 'fast-check';

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI documents are untyped JSON */
type Json = any;

/** Text the server refuses although no JSON Schema can say so: an unpaired UTF-16 surrogate. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Values valid against an OpenAPI 3.0 schema of the served document, for contract fuzzing:
 * whatever the schema admits, the server must accept. `overrides` replaces the arbitrary of a
 * property by name (for rules no schema can state, such as "not in the future").
 */
export function arbitraryFor(
  doc: Json,
  schema: Json,
  overrides: Record<string, fc.Arbitrary<unknown>> = {},
): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  switch (s.type) {
    case 'object':
    case undefined: {
      if (!s.properties) return fc.constant({});
      const required = new Set<string>(s.required ?? []);
      const entries = Object.entries<Json>(s.properties).map(([name, p]) => [
        name,
        overrides[name] ?? arbitraryFor(doc, p, overrides),
      ]);
      return fc.record(Object.fromEntries(entries) as Record<string, fc.Arbitrary<unknown>>, {
        requiredKeys: [...required],
      });
    }
    case 'array':
      return fc.array(arbitraryFor(doc, s.items, overrides), {
        minLength: s.minItems ?? 0,
        maxLength: s.maxItems ?? 5,
      });
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      const min = s.minLength ?? 0;
      const max = s.maxLength ?? 50;
      const base = s.pattern
        ? fc.stringMatching(new RegExp(s.pattern as string, 'u'))
        : fc.string({ minLength: min, maxLength: max, unit: 'binary' });
      return base.filter(
        (v) => [...v].length >= min && [...v].length <= max && !LONE_SURROGATE.test(v),
      );
    }
    default:
      throw new Error(`no arbitrary for ${JSON.stringify(s)}`);
  }
}

export function resolve(doc: Json, schema: Json): Json {
  let s = schema;
  // A described reference is written `{description, allOf: [{$ref}]}`: the same schema.
  while (s?.$ref || s?.allOf?.length === 1) {
    s = s.$ref ? doc.components.schemas[(s.$ref as string).split('/').pop() as string] : s.allOf[0];
  }
  return s;
}
