import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { jurisdictionCodeFromName } from '../common/indec-jurisdictions.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { ResiliencePolicy } from '../common/resilience/resilience-policy.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import { listOf, SisaRecord, text } from '../common/sisa/sisa-answer.js';
import { sisaGet } from '../common/sisa/sisa-get.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Licence, Profesional } from './profesional.js';
import { ProfesionalRegistryClient } from './profesional-registry.client.js';

const REFEPS = 'refeps';

/**
 * REFEPS through SISA's REST services (sisaGet), under the shared `refeps` resilience policy. Its
 * record's quirks: lists of one sent bare, a missing element for "no specialty", province names
 * instead of INDEC codes, enablement spread over `estado` and `vigente`.
 */
@Injectable()
export class RefepsHttpClient extends ProfesionalRegistryClient {
  private readonly policy: ResiliencePolicy;
  private readonly log: Logger;

  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    resilience: ResilienceRegistry,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    super();
    // Created now rather than on first call, so readiness reports the breaker from the start.
    this.policy = resilience.policy(REFEPS);
    this.log = logger.child({ component: 'refeps-client' });
  }

  findByDocument(documento: string): Promise<Profesional | null> {
    return this.lookup('obtener', { nrodoc: documento });
  }

  findByLicence(matricula: string, jurisdiccion: string): Promise<Profesional | null> {
    return this.lookup('buscar', { matricula, provinciaMatriculacion: jurisdiccion });
  }

  private lookup(service: string, params: Record<string, string>): Promise<Profesional | null> {
    const { refepsBaseUrl, sisaUser, sisaPassword } = this.config.upstreams;
    return this.policy.execute(async (signal) => {
      const record = await sisaGet(this.http, {
        system: REFEPS,
        baseUrl: refepsBaseUrl as string,
        path: `/sisa/services/rest/profesional/${service}`,
        params,
        credentials: { usuario: sisaUser, clave: sisaPassword },
        signal,
      });
      return record && this.toProfesional(record);
    });
  }

  /** A (non-retriable) UpstreamFailure when an "OK" record lacks what identifies a person. */
  private toProfesional(record: SisaRecord): Profesional {
    const documento = text(record.numeroDocumento);
    const apellido = text(record.apellido);
    if (documento === '' || apellido === '') {
      throw new UpstreamFailure(REFEPS, 'INVALID_RECORD', false);
    }
    return {
      documento,
      nombre: text(record.nombre),
      apellido,
      matriculas: listOf(record.matriculas, 'matricula').map((m) => this.toLicence(m)),
    };
  }

  private toLicence(m: SisaRecord): Licence {
    const province = text(m.jurisdiccion) || text(m.provincia);
    const jurisdiccion = jurisdictionCodeFromName(province);
    // Province names are public data; the record's personal fields are never logged.
    if (jurisdiccion === undefined) {
      this.log.warn({ provincia: province }, 'REFEPS licence in an unknown province');
    }
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
}
