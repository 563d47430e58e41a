import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { AxiosError, AxiosResponse } from 'axios';
import { firstValueFrom } from 'rxjs';
import { ResiliencePolicy } from '../common/resilience/resilience-policy.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import { ministerioSettings } from './ministerio.settings.js';
import type { MinisterioSettings } from './ministerio.settings.js';
import {
  AnulacionPuntero,
  MinisterioClient,
  Puntero,
  MinisterioReceipt,
  MinisterioRejection,
} from './ministerio.client.js';

/** Refresh this long before the ministry says the token expires (clock skew, in-flight calls). */
const TOKEN_EARLY_REFRESH_MS = 30_000;
const SYSTEM = 'ministerio';

/**
 * The ministry's wire format: an OAuth2 client-credentials token (cached until shortly before
 * it expires, refreshed once on a 401) and one POST, idempotent on the CUIR (200 `duplicado`
 * for what it already holds). No retries here: the notification job retries with its own
 * backoff; the breaker still makes a down ministry fail fast.
 */
@Injectable()
export class MinisterioHttpClient extends MinisterioClient {
  private token?: { value: string; expiresAt: number };
  private tokenRequest?: Promise<string>;
  private readonly policy: ResiliencePolicy;
  private readonly baseUrl: string;

  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectSettings(ministerioSettings) private readonly settings: MinisterioSettings,
    resilience: ResilienceRegistry,
  ) {
    super();
    this.policy = resilience.policy(SYSTEM, { maxAttempts: 1 });
    this.baseUrl = (config.upstreams.ministerioBaseUrl ?? '').replace(/\/$/, '');
  }

  deliver(pointer: Puntero): Promise<MinisterioReceipt> {
    return this.send('/v1/punteros', pointer);
  }

  /** 200 `{id, cuir, estado: "ANULADO", duplicado?}`; 404 `NO_ENCONTRADO` is a rejection. */
  anular(a: AnulacionPuntero): Promise<MinisterioReceipt> {
    const { cuir, ...body } = a;
    return this.send(`/v1/punteros/${encodeURIComponent(cuir)}/anulacion`, body);
  }

  /** One authenticated POST, with one fresh token on a 401. */
  private send(path: string, body: object): Promise<MinisterioReceipt> {
    return this.policy.execute(async (signal) => {
      const post = async () =>
        this.post(path, body, signal, {
          Authorization: `Bearer ${await this.accessToken(signal)}`,
          'Content-Type': 'application/json',
        });
      let res = await post();
      if (res.status === 401) {
        this.token = undefined; // revoked or expired early: one fresh token, one more try
        res = await post();
      }
      return this.interpret(res);
    });
  }

  private interpret(res: AxiosResponse<unknown>): MinisterioReceipt {
    const body = res.data as {
      id?: unknown;
      duplicado?: unknown;
      error?: { codigo?: unknown; mensaje?: unknown };
    };
    if (res.status === 200 || res.status === 201) {
      if (typeof body?.id !== 'string')
        throw new UpstreamFailure(SYSTEM, `HTTP ${res.status} without a pointer id`, true);
      return { ref: body.id, duplicate: body.duplicado === true || res.status === 200 };
    }
    // Auth and rate problems are ours to fix or wait out, not a verdict on the prescription.
    if (res.status >= 400 && res.status < 500 && ![401, 403, 408, 429].includes(res.status)) {
      const { codigo, mensaje } = body?.error ?? {};
      throw new MinisterioRejection(
        typeof codigo === 'string' ? codigo : `HTTP ${res.status}`,
        typeof mensaje === 'string' ? mensaje : 'rejected',
      );
    }
    throw new UpstreamFailure(SYSTEM, `HTTP ${res.status}`, true);
  }

  /** A valid token; concurrent deliveries share one token request. */
  private async accessToken(signal: AbortSignal): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    this.tokenRequest ??= this.fetchToken(signal).finally(() => (this.tokenRequest = undefined));
    return this.tokenRequest;
  }

  private async fetchToken(signal: AbortSignal): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.settings.clientId,
      client_secret: this.settings.clientSecret,
    });
    const res = await this.post('/oauth/token', form.toString(), signal, {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    const body = res.data as { access_token?: unknown; expires_in?: unknown };
    if (res.status !== 200 || typeof body?.access_token !== 'string') {
      throw new UpstreamFailure(SYSTEM, `token endpoint HTTP ${res.status}`, res.status >= 500);
    }
    const ttlMs = (typeof body.expires_in === 'number' ? body.expires_in : 60) * 1000;
    this.token = {
      value: body.access_token,
      expiresAt: Date.now() + Math.max(0, ttlMs - TOKEN_EARLY_REFRESH_MS),
    };
    return this.token.value;
  }

  /** Network-level failures (refused, reset, aborted) are transient upstream failures. */
  private async post(
    path: string,
    body: unknown,
    signal: AbortSignal,
    headers: Record<string, string>,
  ): Promise<AxiosResponse<unknown>> {
    try {
      return await firstValueFrom(
        this.http.post(`${this.baseUrl}${path}`, body, {
          headers,
          signal,
          validateStatus: () => true,
        }),
      );
    } catch (err) {
      if (err instanceof AxiosError)
        throw new UpstreamFailure(SYSTEM, err.code ?? 'network error', true, { cause: err });
      throw err;
    }
  }
}
