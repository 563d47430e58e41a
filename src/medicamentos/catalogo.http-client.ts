import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { isAxiosError } from 'axios';
import { firstValueFrom } from 'rxjs';
import type { ResiliencePolicy } from '../common/resilience/resilience-policy.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CatalogoClient, type CatalogoPage } from './catalogo.client.js';
import { CATALOGO, decodeCatalogoPage } from './catalogo-wire.js';

const LIST = '/catalogo/v1/medicamentos';
/** A page of 1,000 items is ~0.5 MB; far beyond that is not a catalogue page. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The catalogue's JSON API, under the shared `catalogo` resilience policy (page reads retry). */
@Injectable()
export class CatalogoHttpClient extends CatalogoClient {
  private readonly policy: ResiliencePolicy;

  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    resilience: ResilienceRegistry,
  ) {
    super();
    this.policy = resilience.policy(CATALOGO);
  }

  fetchPage(page: number, perPage: number): Promise<CatalogoPage> {
    const url = new URL(LIST, this.config.upstreams.catalogoBaseUrl).toString();
    return this.policy.execute(async (signal) => {
      let res;
      try {
        res = await firstValueFrom(
          this.http.get<unknown>(url, {
            params: { page, per_page: perPage },
            headers: { Accept: 'application/json' },
            responseType: 'json',
            validateStatus: () => true,
            maxRedirects: 0,
            maxContentLength: MAX_BODY_BYTES,
            signal,
          }),
        );
      } catch (err) {
        const code =
          isAxiosError(err) && err.code && /^[A-Z_]{1,30}$/.test(err.code) ? err.code : 'NETWORK';
        throw new UpstreamFailure(CATALOGO, code, true);
      }
      if (res.status !== 200) {
        // 5xx and 429 may pass; any other answer would be the same on a retry.
        const retriable = res.status >= 500 || res.status === 429;
        throw new UpstreamFailure(CATALOGO, `HTTP ${res.status}`, retriable);
      }
      return decodeCatalogoPage(res.data);
    });
  }
}
