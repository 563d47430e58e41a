/** The professional as this service understands it, whatever registry it came from. */
export interface Licence {
  matricula: string;
  /** INDEC code of the licensing jurisdiction; '' when the registry's province is unknown. */
  jurisdiccion: string;
  profesion: string;
  especialidades: string[];
  habilitado: boolean;
  /** The registry's id of this licence. */
  refepsId: string;
}

export interface Profesional {
  documento: string;
  nombre: string;
  apellido: string;
  matriculas: Licence[];
}

/** Contract §3: of the licences (in `jurisdiccion` if asked), the first enabled, else the first. */
export function pickLicence(p: Profesional, jurisdiccion?: string): Licence | undefined {
  if (jurisdiccion !== undefined) {
    const inJurisdiction = p.matriculas.filter((m) => m.jurisdiccion === jurisdiccion);
    return inJurisdiction.find((m) => m.habilitado) ?? inJurisdiction[0];
  }
  return p.matriculas.find((m) => m.habilitado) ?? p.matriculas[0];
}
