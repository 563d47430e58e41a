import type { OpenAPIObject, TagObject } from '@nestjs/swagger';
import { registeredSlices } from '../common/module-slice.js';

/**
 * The top-level tags: each module's (its slice's `tags`), in the order of src/slices.ts, then
 * `operations`, the routes outside /v1 that belong to no module. Names follow the tag rule of
 * common/naming.ts (lower-case ASCII: generated clients use them).
 */
const OPERATIONS_TAG: TagObject = {
  name: 'operations',
  description:
    'Health, metrics and this document: outside /v1, no credentials, no rate limit per client.',
};

/**
 * The display order of the tags the service had before they moved into the slices; a tag not
 * listed here (a new module's) follows them in the order of src/slices.ts. Listing one is never
 * needed.
 */
const DISPLAY_ORDER = [
  'cuir',
  'recetas',
  'verificacion',
  'profesional',
  'persona',
  'medicamentos',
  'dispensas',
  'paciente',
  'publico',
  'fiscalizacion',
];

/** Every declared tag, in display order. */
export function declaredTags(): TagObject[] {
  const fromSlices = registeredSlices().flatMap((s) =>
    Object.entries(s.tags ?? {}).map(([name, description]) => ({ name, description })),
  );
  const rank = (t: TagObject) => {
    const i = DISPLAY_ORDER.indexOf(t.name);
    return i === -1 ? DISPLAY_ORDER.length : i;
  };
  return [...fromSlices.sort((a, b) => rank(a) - rank(b)), OPERATIONS_TAG];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The tags the operations use, in display order; a tag no slice declares gets a plain line. */
export function usedTags(doc: OpenAPIObject): TagObject[] {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) for (const t of item[method]?.tags ?? []) used.add(t);
  }
  const tags = declaredTags();
  const known = tags.filter((t) => used.has(t.name));
  const others = [...used]
    .filter((name) => !tags.some((t) => t.name === name))
    .map((name) => ({ name, description: `Operations of ${name}.` }));
  return [...known, ...others];
}
