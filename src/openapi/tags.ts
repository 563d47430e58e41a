import type { TagObject } from '@nestjs/swagger';
import { registeredSlices } from '../common/module-slice.js';

/**
 * The top-level tags: each module's (its slice's `tags`), then `operations`, the routes outside
 * /v1 that belong to no module. Names follow the tag rule of common/naming.ts.
 */
const OPERATIONS_TAG: TagObject = {
  name: 'operations',
  description:
    'Health, metrics and this document: outside /v1, no credentials, no rate limit per client.',
};

/** The tags' display order; a tag not listed (a new module's) follows, in the order of src/slices.ts. */
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

/** The tags of `used`, in display order; a tag no slice declares gets a plain line. */
export function usedTags(used: Set<string>): TagObject[] {
  const tags = declaredTags();
  const others = [...used]
    .filter((name) => !tags.some((t) => t.name === name))
    .map((name) => ({ name, description: `Operations of ${name}.` }));
  return [...tags.filter((t) => used.has(t.name)), ...others];
}
