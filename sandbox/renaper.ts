/**
 * SISA RENAPER (citizen registry), as its REST web service answers:
 *   GET /sisa/services/rest/cmdb/obtener?usuario&clave&nrodoc[&sexo]
 * Without sexo the document alone identifies the person. See sisa.ts for the quirks.
 */
import type { InjectedMode } from './faults.js';
import type { Reply, SandboxRequest } from './http.js';
import {
  hasValidCredentials,
  param,
  sisaAnswer,
  sisaResultado,
  sisaUnavailable,
  type SisaCredentials,
} from './sisa.js';
import type { EmulatedSystem } from './system.js';
import { CIUDADANOS } from './fixtures/ciudadanos.js';

const ROOT = 'ciudadano';

export function createRenaper(creds: SisaCredentials): EmulatedSystem {
  const obtener = (req: SandboxRequest, _p: string[], injected?: InjectedMode): Reply => {
    if (injected === 'quota') return sisaResultado(req, ROOT, 'QUOTA_DIARIA_EXCEDIDA');
    if (injected === 'auth') return sisaResultado(req, ROOT, 'ERROR_AUTENTICACION');
    if (!hasValidCredentials(req, creds)) return sisaResultado(req, ROOT, 'ERROR_AUTENTICACION');
    const nrodoc = param(req, 'nrodoc');
    if (!nrodoc) return sisaResultado(req, ROOT, 'ERROR_DATOS');
    const sexo = param(req, 'sexo')?.toUpperCase();
    const found = CIUDADANOS.find(
      (c) => c.nroDocumento === nrodoc && (sexo === undefined || c.sexo === sexo),
    );
    return found
      ? sisaAnswer(req, ROOT, { resultado: 'OK', ...found })
      : sisaResultado(req, ROOT, 'REGISTRO_NO_ENCONTRADO');
  };

  return {
    service: 'renaper',
    routes: [{ method: 'GET', path: /^\/sisa\/services\/rest\/cmdb\/obtener$/, handle: obtener }],
    unavailable: sisaUnavailable,
    reset: () => undefined,
  };
}
