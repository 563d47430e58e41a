import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { ResiliencePolicy } from '../common/resilience/resilience-policy.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import { SisaRecord, text } from '../common/sisa/sisa-answer.js';
import { sisaGet } from '../common/sisa/sisa-get.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Persona } from './persona.js';
import { PersonaRegistryClient } from './persona-registry.client.js';

const RENAPER = 'renaper';

/** SISA writes dates dd-mm-yyyy (sometimes with slashes); → yyyy-mm-dd, or undefined if invalid. */
export function isoFromSisaDate(value: string): string | undefined {
  const m = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(value);
  if (!m) return undefined;
  const [, dd, mm, yyyy] = m;
  const date = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  const iso = `${yyyy}-${mm}-${dd}`;
  // Date.UTC rolls 31-02 over into March: a round trip catches impossible dates.
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** Throws a (non-retriable) UpstreamFailure when an "OK" record lacks what the API returns. */
function toPersona(record: SisaRecord): Persona {
  const documento = text(record.nroDocumento) || text(record.numeroDocumento);
  const apellido = text(record.apellido);
  const fechaNacimiento = isoFromSisaDate(text(record.fechaNacimiento));
  if (documento === '' || apellido === '' || fechaNacimiento === undefined) {
    throw new UpstreamFailure(RENAPER, 'INVALID_RECORD', false);
  }
  return {
    documento,
    nombre: text(record.nombre),
    apellido,
    fechaNacimiento,
    domicilio: {
      calle: text(record.domicilio),
      pisoDpto: text(record.pisoDpto),
      localidad: text(record.localidad),
      provincia: text(record.provincia),
    },
  };
}

/** RENAPER through SISA's REST service (sisaGet), under the shared `renaper` resilience policy. */
@Injectable()
export class RenaperHttpClient extends PersonaRegistryClient {
  private readonly policy: ResiliencePolicy;

  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    resilience: ResilienceRegistry,
  ) {
    super();
    // Created now rather than on first call, so readiness reports the breaker from the start.
    this.policy = resilience.policy(RENAPER);
  }

  findByDocument(documento: string): Promise<Persona | null> {
    const { renaperBaseUrl, sisaUser, sisaPassword } = this.config.upstreams;
    return this.policy.execute(async (signal) => {
      const record = await sisaGet(this.http, {
        system: RENAPER,
        baseUrl: renaperBaseUrl as string,
        path: '/sisa/services/rest/cmdb/obtener',
        params: { nrodoc: documento },
        credentials: { usuario: sisaUser, clave: sisaPassword },
        signal,
      });
      return record && toPersona(record);
    });
  }
}
