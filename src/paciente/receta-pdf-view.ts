/**
 * What the printable prescription shows (contract §8), as the service hands it to the renderer:
 * already decided values, no lookups left. Pure helpers to build and format its parts.
 */
import { jurisdictionName } from '../common/indec-jurisdictions.js';

import type { EstadoReceta } from '../recetas/recetas.public.js';

/** What was dispensed of an item (by a dispensation not reversed: at most one per item). */
export interface RecetaPdfDispensa {
  cantidad: number;
  /** The pharmacy's name. */
  farmacia: string;
  /** ISO 8601 instant of the dispensation. */
  fecha: string;
  /** The code dispensed, when the pharmacy gave one. */
  codigo?: string | null;
  sustituido: boolean;
}

export interface RecetaPdfItem {
  nombre: string;
  cantidad: number;
  /** Catalogue code, when the prescriber gave one. */
  codigo?: string | null;
  /** SPEC 9.2's members, when given. */
  dci?: string | null;
  concentracion?: string | null;
  forma_farmaceutica?: string | null;
  presentacion?: string | null;
  posologia?: string | null;
  /** False: the prescriber forbids substitution ("no sustituir"); absent: allowed. */
  sustituible?: boolean;
  /** Absent or null: nothing dispensed. */
  dispensa?: RecetaPdfDispensa | null;
}

export interface RecetaPdfPaciente {
  nombre: string;
  apellido: string;
  sexo: string;
  /** YYYY-MM-DD. */
  fecha_nacimiento: string;
}

export interface RecetaPdfCobertura {
  financiador: string;
  numero_afiliado: string;
  codigo_rnos?: string | null;
  plan?: string | null;
}

export interface RecetaPdfView {
  /** 41 digits. */
  cuir: string;
  /** ISO 8601 with offset, as stored. Also the PDF's creation date, so output is reproducible. */
  fecha_creacion: string;
  /** YYYY-MM-DD, Argentina calendar dates (contract §7). */
  vigencia_desde: string;
  vigencia_hasta: string;
  matricula_profesional: string;
  /** INDEC code and official name: see jurisdiccionOf. */
  jurisdiccion: { code: string; name: string };
  /** Only when the registry gave one. */
  profesional_nombre?: string | null;
  /** The patient's DNI, 7 or 8 digits. */
  documento_paciente: string;
  /** SPEC 9.2: who it is for and the coverage, when registered. */
  paciente?: RecetaPdfPaciente | null;
  cobertura?: RecetaPdfCobertura | null;
  /** The diagnosis's ICD-10 code only (its description is not printed). */
  diagnostico_codigo?: string | null;
  locacion: string;
  items: RecetaPdfItem[];
  estado_receta: EstadoReceta;
  /** `at`: ISO 8601 with offset. */
  anulacion: { at: string; motivo: string } | null;
  /**
   * A restricted prescription's mark (SPEC 9.3): "Receta archivada" (CUIR subtype 03) or
   * "Legalmente restringida" (04); absent for any other.
   */
  restriccion?: string | null;
  /** Hex SHA-256 of the registered content (the same as the verification by CUIR shows). */
  content_sha256: string;
  /** The public verification link (PUBLIC_BASE_URL/r/{cuir}?f=…): publico/EnlacesPublicos. */
  verification_url: string;
}

/** `{code, name}` for an INDEC code; an unknown code keeps its digits and an empty name. */
export function jurisdiccionOf(code: string): { code: string; name: string } {
  return { code, name: jurisdictionName(code) ?? '' };
}

export const ESTADO_LABEL: Record<EstadoReceta, string> = {
  VIGENTE: 'VIGENTE',
  DISPENSADA_PARCIAL: 'DISPENSADA PARCIALMENTE',
  DISPENSADA: 'DISPENSADA',
  VENCIDA: 'VENCIDA',
  ANULADA: 'ANULADA',
};

// Shared with the public page (GET /r/{cuir}): one text for an instant on both.
export { fechaHoraAr } from '../common/fecha-argentina.js';

/** "2026-11-22" → "22/11/2026"; anything else is printed as given. */
export function fechaAr(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : ymd;
}
