import type { ContenidoColumnas } from '../contenido/contenido.js';

/**
 * SPEC 9.2's personal members (SPEC 10: sealed at rest like the DNI), sealed together as one
 * value (`recetas.personales_cifrado`): one AES-256-GCM operation per registration, not seven.
 * The insurer, its RNOS code and plan stay in clear: millions share them, they identify no one.
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
 * Each member's key in the sealed JSON: short, as billions of rows store it (SPEC 10). Never
 * change a key: rows sealed with it would no longer open.
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

/** The compact JSON to seal (`{"n":"Ana","dc":"J02.9"}`: the members present), or null when none is. */
export function personalesJson(r: DatosPersonales): string | null {
  const present = COLUMNAS_PERSONALES.filter((c) => r[c] !== null && r[c] !== undefined);
  return present.length
    ? JSON.stringify(Object.fromEntries(present.map((c) => [CLAVES[c], r[c]])))
    : null;
}

/** The columns from an opened JSON, absent members null; an unknown key or value throws. */
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
export const vacios = (): DatosPersonales =>
  Object.fromEntries(COLUMNAS_PERSONALES.map((c) => [c, null])) as DatosPersonales;
