/**
 * Restricted prescriptions (SPEC 9.3): CUIR type 01 with subtype 03 ("bajo receta archivada") or
 * 04 ("legalmente restringido"), which need their patient and full dosage on record. Pure: the
 * CUIR's digits decide.
 */
import { CUIR_LAYOUT, type CuirComponentField } from '../../cuir/cuir.public.js';

export const SUBTIPOS_RESTRINGIDOS = ['03', '04'] as const;
export type SubtipoRestringido = (typeof SUBTIPOS_RESTRINGIDOS)[number];

/** How the printed document and the authority name each subtype. */
export const LEYENDA_SUBTIPO: Readonly<Record<SubtipoRestringido, string>> = {
  '03': 'Receta archivada',
  '04': 'Legalmente restringida',
};

const TIPO_MEDICAMENTO = '01';

/** 1-based position and width of a CUIR component, as SQL's substr takes them. */
export function cuirSubstr(field: CuirComponentField): { from: number; length: number } {
  let from = 1;
  for (const c of CUIR_LAYOUT) {
    if (c.field === field) return { from, length: c.length };
    from += c.length;
  }
  throw new Error(`no CUIR component ${field}`);
}

const slice = (cuir: string, field: CuirComponentField) => {
  const { from, length } = cuirSubstr(field);
  return cuir.slice(from - 1, from - 1 + length);
};

/** The restricted subtype of this CUIR, or null when the prescription is not restricted. */
export function subtipoRestringido(cuir: string): SubtipoRestringido | null {
  if (slice(cuir, 'prescriptionType') !== TIPO_MEDICAMENTO) return null;
  const subtipo = slice(cuir, 'medicationType');
  return (SUBTIPOS_RESTRINGIDOS as readonly string[]).includes(subtipo)
    ? (subtipo as SubtipoRestringido)
    : null;
}

/** The CUIR's jurisdiction (INDEC code). */
export const jurisdiccionDe = (cuir: string): string => slice(cuir, 'jurisdiction');

/** The item members a restricted prescription must carry on every item. */
export const MIEMBROS_ITEM_RESTRINGIDA = [
  'dci',
  'concentracion',
  'forma_farmaceutica',
  'posologia',
] as const;

interface RegistroRestringible {
  cuir: string;
  paciente?: unknown;
  items: ReadonlyArray<Partial<Record<(typeof MIEMBROS_ITEM_RESTRINGIDA)[number], unknown>>>;
}

/** What a restricted prescription's registration lacks, as VALIDATION_FAILED details (`items[0].dci`…). */
export function faltantesRestringida(
  dto: RegistroRestringible,
): Array<{ field: string; issue: string }> {
  const subtipo = subtipoRestringido(dto.cuir);
  if (!subtipo) return [];
  const issue = `is required on a restricted prescription (CUIR subtype ${subtipo}: ${LEYENDA_SUBTIPO[subtipo].toLowerCase()})`;
  const missing: Array<{ field: string; issue: string }> = [];
  if (dto.paciente === undefined || dto.paciente === null)
    missing.push({ field: 'paciente', issue });
  dto.items.forEach((item, i) => {
    for (const member of MIEMBROS_ITEM_RESTRINGIDA) {
      if (item[member] === undefined || item[member] === null)
        missing.push({ field: `items[${i}].${member}`, issue });
    }
  });
  return missing;
}
