import type { OpenAPIObject, TagObject } from '@nestjs/swagger';

/** Top-level tags, in display order (names are ASCII: generated clients use them). */
const TAGS: TagObject[] = [
  { name: 'cuir', description: 'CUIR generation (Res. MS 2214/2025, Annex IV).' },
  {
    name: 'recetas',
    description:
      "Registration of prescriptions, reported to the ministry; the caller's listing, detail and transaction tracking.",
  },
  {
    name: 'verificacion',
    description:
      'Verification of a prescription by its CUIR, for dispensers, and the audit of those verifications for the owner.',
  },
  { name: 'profesional', description: 'Professional enablement in REFEPS (through SISA).' },
  { name: 'persona', description: 'Citizen identity in RENAPER (through SISA).' },
  {
    name: 'medicamentos',
    description: 'Search of the official medication catalogue (a local mirror).',
  },
  {
    name: 'dispensas',
    description:
      'Dispensers: reserving a prescription, recording its dispensation, reversing it within DISPENSA_REVERSION_HORAS.',
  },
  {
    name: 'paciente',
    description:
      "The citizen's own access by a Mi Argentina token (Authorization: Bearer, never API keys): a prescription by its CUIR and its printable document.",
  },
  {
    name: 'publico',
    description:
      'The public verification behind the printed QR: no credentials, a signed link, never the patient.',
  },
  {
    name: 'fiscalizacion',
    description:
      "Health authorities (scope fiscalizacion:read, granted only by name): the restricted prescriptions of their jurisdictions, with patient, diagnosis and dispensations (Res. MS 2214/2025's digital duplicate).",
  },
  {
    name: 'operations',
    description:
      'Health, metrics and this document: outside /v1, no credentials, no rate limit per client.',
  },
];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The tags the operations use, in TAGS' order; a tag TAGS does not know gets a plain line. */
export function usedTags(doc: OpenAPIObject): TagObject[] {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) for (const t of item[method]?.tags ?? []) used.add(t);
  }
  const known = TAGS.filter((t) => used.has(t.name));
  const others = [...used]
    .filter((name) => !TAGS.some((t) => t.name === name))
    .map((name) => ({ name, description: `Operations of ${name}.` }));
  return [...known, ...others];
}
