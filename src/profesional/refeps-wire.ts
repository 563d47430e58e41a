/**
 * REFEPS's record (as SISA sends it, JSON or XML alike) → the domain Profesional. Pure; the
 * quirks live here: lists of one sent bare, a missing element for "no specialty", province
 * names instead of INDEC codes, enablement spread over `estado` and `vigente`.
 */
import { jurisdictionCodeFromName } from '../common/indec-jurisdictions.js';
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import { listOf, SisaRecord, text } from '../common/sisa/sisa-answer.js';
import type { Licence, Profesional } from './profesional.js';

export const REFEPS = 'refeps';

function toLicence(m: SisaRecord, unknownProvince: (name: string) => void): Licence {
  const province = text(m.jurisdiccion) || text(m.provincia);
  const jurisdiccion = jurisdictionCodeFromName(province);
  if (jurisdiccion === undefined) unknownProvince(province);
  return {
    matricula: text(m.matricula),
    jurisdiccion: jurisdiccion ?? '',
    profesion: text(m.profesion),
    especialidades: listOf(m.especialidades, 'especialidad')
      .map((e) => text(e.nombre))
      .filter((name) => name !== ''),
    // Enabled: state "Habilitado" and not marked as out of force.
    habilitado:
      text(m.estado).toUpperCase() === 'HABILITADO' && text(m.vigente).toUpperCase() !== 'NO',
    refepsId: text(m.codigo),
  };
}

/** Throws a (non-retriable) UpstreamFailure when an "OK" record lacks what identifies a person. */
export function toProfesional(
  record: SisaRecord,
  unknownProvince: (name: string) => void = () => undefined,
): Profesional {
  const documento = text(record.numeroDocumento);
  const apellido = text(record.apellido);
  if (documento === '' || apellido === '') {
    throw new UpstreamFailure(REFEPS, 'INVALID_RECORD', false);
  }
  return {
    documento,
    nombre: text(record.nombre),
    apellido,
    matriculas: listOf(record.matriculas, 'matricula').map((m) => toLicence(m, unknownProvince)),
  };
}
