/**
 * SISA REFEPS (national registry of health professionals), as its REST web service answers:
 *   GET /sisa/services/rest/profesional/obtener?usuario&clave&nrodoc
 *   GET /sisa/services/rest/profesional/buscar?usuario&clave&matricula&provinciaMatriculacion
 * provinciaMatriculacion takes the province name or its INDEC code. See sisa.ts for the quirks.
 */
import type { InjectedMode } from './faults.js';
import type { Reply, SandboxRequest } from './http.js';
import {
  hasValidCredentials,
  oneOrMany,
  param,
  sisaAnswer,
  sisaResultado,
  sisaUnavailable,
  type SisaCredentials,
} from './sisa.js';
import type { EmulatedSystem } from './system.js';
import type { XmlObject } from './xml.js';
import {
  PROFESIONALES,
  REFEPS_LIMITE_EXCEDIDO_DOCUMENTO,
  type Matricula,
  type Profesional,
} from './fixtures/profesionales.js';
import { PROVINCIAS, resolveProvincia } from './fixtures/provincias.js';

const ROOT = 'profesional';

function matriculaToWire(m: Matricula): XmlObject {
  const provincia = PROVINCIAS[m.jurisdiccion];
  const wire: XmlObject = {
    codigo: m.codigo,
    matricula: m.matricula,
    profesion: m.profesion,
    jurisdiccion: provincia,
    provincia,
    estado: m.estado,
    vigente: m.vigente,
    fechaMatricula: m.fechaMatricula,
  };
  // SISA leaves the element out when the licence has no certified specialty.
  if (m.especialidades.length > 0) {
    wire.especialidades = { especialidad: oneOrMany(m.especialidades.map((e) => ({ ...e }))) };
  }
  return wire;
}

export function profesionalToWire(p: Profesional): XmlObject {
  return {
    resultado: 'OK',
    apellido: p.apellido,
    nombre: p.nombre,
    tipoDocumento: p.tipoDocumento,
    numeroDocumento: p.numeroDocumento,
    sexo: p.sexo,
    matriculas: { matricula: oneOrMany(p.matriculas.map(matriculaToWire)) },
  };
}

function injectedAnswer(req: SandboxRequest, injected: InjectedMode): Reply {
  const resultado = injected === 'quota' ? 'NO_TIENE_QUOTA_DISPONIBLE' : 'ERROR_AUTENTICACION';
  return sisaResultado(req, ROOT, resultado);
}

export function createRefeps(creds: SisaCredentials): EmulatedSystem {
  const obtener = (req: SandboxRequest, _p: string[], injected?: InjectedMode): Reply => {
    if (injected) return injectedAnswer(req, injected);
    if (!hasValidCredentials(req, creds)) return sisaResultado(req, ROOT, 'ERROR_AUTENTICACION');
    const nrodoc = param(req, 'nrodoc');
    if (!nrodoc) return sisaResultado(req, ROOT, 'ERROR_DATOS');
    if (nrodoc === REFEPS_LIMITE_EXCEDIDO_DOCUMENTO) {
      return sisaResultado(req, ROOT, 'LIMITE EXCEDIDO');
    }
    const found = PROFESIONALES.find((p) => p.numeroDocumento === nrodoc);
    return found
      ? sisaAnswer(req, ROOT, profesionalToWire(found))
      : sisaResultado(req, ROOT, 'REGISTRO_NO_ENCONTRADO');
  };

  const buscar = (req: SandboxRequest, _p: string[], injected?: InjectedMode): Reply => {
    if (injected) return injectedAnswer(req, injected);
    if (!hasValidCredentials(req, creds)) return sisaResultado(req, ROOT, 'ERROR_AUTENTICACION');
    const matricula = param(req, 'matricula');
    const provincia = param(req, 'provinciaMatriculacion');
    const jurisdiccion = provincia && resolveProvincia(provincia);
    if (!matricula || !jurisdiccion) return sisaResultado(req, ROOT, 'ERROR_DATOS');
    const found = PROFESIONALES.find((p) =>
      p.matriculas.some((m) => m.matricula === matricula && m.jurisdiccion === jurisdiccion),
    );
    return found
      ? sisaAnswer(req, ROOT, profesionalToWire(found))
      : sisaResultado(req, ROOT, 'REGISTRO_NO_ENCONTRADO');
  };

  return {
    service: 'refeps',
    routes: [
      { method: 'GET', path: /^\/sisa\/services\/rest\/profesional\/obtener$/, handle: obtener },
      { method: 'GET', path: /^\/sisa\/services\/rest\/profesional\/buscar$/, handle: buscar },
    ],
    unavailable: sisaUnavailable,
    reset: () => undefined,
  };
}
