import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { ResiliencePolicy } from '../common/resilience/resilience-policy.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { sisaGet } from '../common/sisa/sisa-get.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Persona } from './persona.js';
import { PersonaRegistryClient } from './persona-registry.client.js';
import { RENAPER, toPersona } from './renaper-wire.js';

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
