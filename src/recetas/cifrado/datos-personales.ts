import type { ContenidoColumnas } from '../contenido/contenido.js';

/**
 * SPEC 9.2's personal members (SPEC 10: sealed at rest like the DNI): what names, identifies or
 * describes the patient. They are sealed together, as one value (`recetas.personales_cifrado`):
 * one AES-256-GCM operation per registration instead of seven, and one key id per row to
 * rotate.
 *
 * The coverage's `financiador`, `codigo_rnos` and `plan` stay in clear: they name the insurer
 * and its plan, which millions of patients share, so alone they identify no one; the member
 * number, which does, is sealed.
 */
export const COLUMNAS_PERSONALES = [
  'paciente_nombre',
  'paciente_apellido',
  'paciente_sexo',
  'paciente_fecha_nacimiento',
  'cobertura_numero_afiliado',
  'diagnostico_codigo',
  'diagnostico_descripcion',
] as const satisfies ReadonlyArray<keyof ContenidoColumnas>;

export type ColumnaPersonal = (typeof COLUMNAS_PERSONALES)[number];

/** The personal columns of a row (null: not registered, or sealed). */
export type DatosPersonales = Pick<ContenidoColumnas, ColumnaPersonal>;

/**
 * Each member's key in the sealed JSON. Short, because the value is stored once per
 * prescription (billions over the retention: SPEC 10 sizes 3.6 billion), and the column names
 * as keys would add about 125 bytes to every row. Never change a key: rows sealed with it
 * would no longer open (a new shape needs a new key and both read).
 */
const CLAVES: Readonly<Record<ColumnaPersonal, string>> = {
  paciente_nombre: 'n',
  paciente_apellido: 'a',
  paciente_sexo: 's',
  paciente_fecha_nacimiento: 'f',
  cobertura_numero_afiliado: 'na',
  diagnostico_codigo: 'dc',
  diagnostico_descripcion: 'dd',
};

const COLUMNA_DE: ReadonlyMap<string, ColumnaPersonal> = new Map(
  COLUMNAS_PERSONALES.map((c) => [CLAVES[c], c]),
);

/**
 * The compact JSON to seal: the members present only (`{"n":"Ana","a":"Gómez","s":"F",
 * "f":"1985-03-14","na":"15-1/00","dc":"J02.9"}`), or null when the row has none (nothing is
 * sealed then: a registration without content pays no operation for it).
 */
export function personalesJson(r: DatosPersonales): string | null {
  const present: Record<string, string> = {};
  let any = false;
  for (const c of COLUMNAS_PERSONALES) {
    const v = r[c];
    if (v === null || v === undefined) continue;
    present[CLAVES[c]] = v;
    any = true;
  }
  return any ? JSON.stringify(present) : null;
}

/**
 * The columns from an opened JSON: each member absent null. A key or a value it does not know
 * throws (a row written by a newer shape is not guessed at).
 */
export function personalesDeJson(json: string): DatosPersonales {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('sealed personal data: not a JSON object');
  const r = vacios();
  for (const [k, v] of Object.entries(parsed)) {
    const c = COLUMNA_DE.get(k);
    if (!c || typeof v !== 'string')
      throw new Error(`sealed personal data: unknown member "${k}" or not a string`);
    (r as Record<ColumnaPersonal, string | null>)[c] = v;
  }
  return r;
}

/** Whether a row still holds a personal member in clear (registered before they were sealed). */
export function personalesEnClaro(r: DatosPersonales): boolean {
  return COLUMNAS_PERSONALES.some((c) => r[c] !== null && r[c] !== undefined);
}

/** Every personal column null: what a sealed row holds in them. */
export function vacios(): DatosPersonales {
  return {
    paciente_nombre: null,
    paciente_apellido: null,
    paciente_sexo: null,
    paciente_fecha_nacimiento: null,
    cobertura_numero_afiliado: null,
    diagnostico_codigo: null,
    diagnostico_descripcion: null,
  };
}
