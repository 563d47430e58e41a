/**
 * What the printable prescription shows (contract §8), as the service hands it to the renderer:
 * already decided values, no lookups left.
 */
import { jurisdictionName } from '../common/indec-jurisdictions.js';
import type { EstadoReceta } from '../recetas/recetas.public.js';

/** What a dispensation not reversed gave of an item (at most one per item). */
export interface RecetaPdfDispensa {
  cantidad: number;
  farmacia: string;
  /** ISO 8601 instant. */
  fecha: string;
  codigo?: string | null;
  sustituido: boolean;
}

export interface RecetaPdfItem {
  nombre: string;
  cantidad: number;
  codigo?: string | null;
  dci?: string | null;
  concentracion?: string | null;
  forma_farmaceutica?: string | null;
  presentacion?: string | null;
  posologia?: string | null;
  /** False: "no sustituir"; absent: allowed. */
  sustituible?: boolean;
  dispensa?: RecetaPdfDispensa | null;
}

export interface RecetaPdfView {
  cuir: string;
  /** ISO 8601 with offset; also the PDF's creation date, so output is reproducible. */
  fecha_creacion: string;
  /** YYYY-MM-DD, Argentina calendar dates. */
  vigencia_desde: string;
  vigencia_hasta: string;
  matricula_profesional: string;
  jurisdiccion: { code: string; name: string };
  profesional_nombre?: string | null;
  documento_paciente: string;
  /** `fecha_nacimiento`: YYYY-MM-DD. */
  paciente?: { nombre: string; apellido: string; sexo: string; fecha_nacimiento: string } | null;
  cobertura?: {
    financiador: string;
    numero_afiliado: string;
    codigo_rnos?: string | null;
    plan?: string | null;
  } | null;
  diagnostico_codigo?: string | null;
  locacion: string;
  items: RecetaPdfItem[];
  estado_receta: EstadoReceta;
  anulacion: { at: string; motivo: string } | null;
  /** A restricted prescription's mark (SPEC 9.3), else absent. */
  restriccion?: string | null;
  content_sha256: string;
  /** The public verification link (publico/EnlacesPublicos). */
  verification_url: string;
}

/** `{code, name}` for an INDEC code; an unknown code keeps its digits and an empty name. */
export function jurisdiccionOf(code: string): { code: string; name: string } {
  return { code, name: jurisdictionName(code) ?? '' };
}

// Shared with the public page (GET /r/{cuir}): one text for an instant on both.
export { fechaHoraAr } from '../common/fecha-argentina.js';

/** "2026-11-22" → "22/11/2026"; anything else is printed as given. */
export function fechaAr(ymd: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : ymd;
}
