import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { ResiliencePolicy } from '../common/resilience/resilience-policy.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { sisaGet } from '../common/sisa/sisa-get.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Profesional } from './profesional.js';
import { ProfesionalRegistryClient } from './profesional-registry.client.js';
import { REFEPS, toProfesional } from './refeps-wire.js';

/** REFEPS through SISA's REST services (sisaGet), under the shared `refeps` resilience policy. */
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
      // Province names are public data; the record's personal fields are never logged.
      return (
        record &&
        toProfesional(record, (provincia) =>
          this.log.warn({ provincia }, 'REFEPS licence in an unknown province'),
        )
      );
    });
  }
}
