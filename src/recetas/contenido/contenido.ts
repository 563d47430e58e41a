/**
 * The prescription's content of SPEC 9.2: the patient, coverage and diagnosis (typed columns of
 * `recetas`) and the item members (the items' JSON). Pure mappings between columns and answers,
 * so every view reads the same shape.
 */
import type { Sexo } from './contenido-patterns.js';

export interface Paciente {
  nombre: string;
  apellido: string;
  sexo: Sexo;
  /** `YYYY-MM-DD`. */
  fecha_nacimiento: string;
}

export interface Cobertura {
  financiador: string;
  numero_afiliado: string;
  codigo_rnos?: string;
  plan?: string;
}

export interface Diagnostico {
  /** ICD-10. */
  codigo: string;
  descripcion?: string;
}

/** The prescription-level members, as a registration sends them (each optional). */
export interface ContenidoReceta {
  paciente?: Paciente | null;
  cobertura?: Cobertura | null;
  diagnostico?: Diagnostico | null;
}

/** The item members besides `nombre` and `cantidad` (each optional). */
export const ITEM_TEXT_MEMBERS = [
  'codigo',
  'dci',
  'concentracion',
  'forma_farmaceutica',
  'presentacion',
  'posologia',
] as const;
export type ItemTextMember = (typeof ITEM_TEXT_MEMBERS)[number];

/** An item as stored in `recetas.items`: a text member only when given, `sustituible` only when false. */
export type ItemGuardado = { nombre: string; cantidad: number; sustituible?: boolean } & Partial<
  Record<ItemTextMember, string>
>;

/** An item as every view shows it: `sustituible` always said. */
export type ItemContenido = ItemGuardado & { sustituible: boolean };

/** The item to store from a validated request item (what it leaves out: see ItemGuardado). */
export function itemGuardado(i: ItemGuardado): ItemGuardado {
  const stored: ItemGuardado = { nombre: i.nombre, cantidad: i.cantidad };
  for (const k of ITEM_TEXT_MEMBERS) {
    const v = i[k];
    if (v) stored[k] = v;
  }
  if (i.sustituible === false) stored.sustituible = false;
  return stored;
}

/** A stored item as the views show it. */
export function itemContenido(stored: ItemGuardado): ItemContenido {
  const { nombre, cantidad, sustituible, ...members } = itemGuardado(stored);
  return { nombre, cantidad, sustituible: sustituible !== false, ...members };
}

/** The typed columns of `recetas` that hold the prescription-level members. */
export interface ContenidoColumnas {
  paciente_nombre: string | null;
  paciente_apellido: string | null;
  paciente_sexo: Sexo | null;
  /** `YYYY-MM-DD` (a `date`, read as text). */
  paciente_fecha_nacimiento: string | null;
  cobertura_financiador: string | null;
  cobertura_numero_afiliado: string | null;
  cobertura_codigo_rnos: string | null;
  cobertura_plan: string | null;
  diagnostico_codigo: string | null;
  diagnostico_descripcion: string | null;
}

/** The columns' values for a registration (null where a member was not sent). */
export function contenidoColumnas(c: ContenidoReceta): ContenidoColumnas {
  const { paciente: p, cobertura: k, diagnostico: d } = c;
  return {
    paciente_nombre: p?.nombre ?? null,
    paciente_apellido: p?.apellido ?? null,
    paciente_sexo: p?.sexo ?? null,
    paciente_fecha_nacimiento: p?.fecha_nacimiento ?? null,
    cobertura_financiador: k?.financiador ?? null,
    cobertura_numero_afiliado: k?.numero_afiliado ?? null,
    cobertura_codigo_rnos: k?.codigo_rnos ?? null,
    cobertura_plan: k?.plan ?? null,
    diagnostico_codigo: d?.codigo ?? null,
    diagnostico_descripcion: d?.descripcion ?? null,
  };
}

/** The patient from the columns, or null when none was registered. */
export function pacienteDe(r: ContenidoColumnas): Paciente | null {
  if (r.paciente_nombre === null) return null;
  return {
    nombre: r.paciente_nombre,
    apellido: r.paciente_apellido ?? '',
    sexo: r.paciente_sexo ?? 'X',
    fecha_nacimiento: r.paciente_fecha_nacimiento ?? '',
  };
}

/** The coverage from the columns (optional members only when registered), or null. */
export function coberturaDe(r: ContenidoColumnas): Cobertura | null {
  if (r.cobertura_financiador === null) return null;
  return {
    financiador: r.cobertura_financiador,
    numero_afiliado: r.cobertura_numero_afiliado ?? '',
    ...(r.cobertura_codigo_rnos !== null ? { codigo_rnos: r.cobertura_codigo_rnos } : {}),
    ...(r.cobertura_plan !== null ? { plan: r.cobertura_plan } : {}),
  };
}

/** The diagnosis from the columns, or null. */
export function diagnosticoDe(r: ContenidoColumnas): Diagnostico | null {
  if (r.diagnostico_codigo === null) return null;
  return {
    codigo: r.diagnostico_codigo,
    ...(r.diagnostico_descripcion !== null ? { descripcion: r.diagnostico_descripcion } : {}),
  };
}

const MIEMBROS = { paciente: pacienteDe, cobertura: coberturaDe, diagnostico: diagnosticoDe };

/** The members a view shows, each only when registered (an answer leaves absent ones out). */
export function contenidoVisible(
  r: ContenidoColumnas,
  which: ReadonlyArray<keyof typeof MIEMBROS>,
): { paciente?: Paciente; cobertura?: Cobertura; diagnostico?: Diagnostico } {
  const shown = {};
  for (const member of which) {
    const value = MIEMBROS[member](r);
    if (value) Object.assign(shown, { [member]: value });
  }
  return shown;
}
