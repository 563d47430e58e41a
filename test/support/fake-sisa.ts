/**
 * Test doubles for the SISA adapters' unit specs: a real axios instance whose transport is
 * scripted (so params, headers, signal and error handling go through real axios), the real
 * resilience registry, and a logger whose output can be inspected.
 */
import { HttpService } from '@nestjs/axios';
import axios, { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import type { Logger } from 'pino';
import { Writable } from 'node:stream';
import { createRootLogger } from '../../src/common/logging/logger.js';
import { ResilienceRegistry } from '../../src/common/resilience/resilience.registry.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { loadAppConfig as loadConfig } from '../../src/slices.js';
import { MetricsService } from '../../src/common/metrics/metrics.service.js';

/** A recorded answer, a transport error code (e.g. ECONNREFUSED), or 'hang' (never answers). */
export type Scripted = { status: number; body: string } | { networkError: string } | 'hang';

export interface SeenRequest {
  url: string;
  params: Record<string, string>;
  accept: string;
}

export class ScriptedSisa {
  readonly seen: SeenRequest[] = [];
  private readonly queue: Scripted[] = [];
  readonly http: HttpService;

  constructor() {
    this.http = new HttpService(axios.create({ adapter: (config) => this.answer(config) }));
  }

  /** Answers, in order; the last one repeats. */
  script(...answers: Scripted[]): this {
    this.queue.splice(0, this.queue.length, ...answers);
    return this;
  }

  private answer(config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
    this.seen.push({
      url: String(config.url),
      params: { ...(config.params as Record<string, string>) },
      accept: String(config.headers.get('Accept')),
    });
    const next = this.queue.length > 1 ? this.queue.shift()! : this.queue[0];
    if (next === 'hang') {
      return new Promise((_resolve, reject) =>
        config.signal?.addEventListener?.('abort', () =>
          reject(new AxiosError('canceled', AxiosError.ERR_CANCELED, config)),
        ),
      );
    }
    if ('networkError' in next) {
      return Promise.reject(
        new AxiosError(`connect ${next.networkError}`, next.networkError, config),
      );
    }
    return Promise.resolve({
      status: next.status,
      statusText: '',
      headers: {},
      config,
      data: next.body,
    });
  }
}

export const SECRET_CLAVE = 'cl4ve-que-no-se-loguea';

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    REFEPS_BASE_URL: 'http://refeps.test',
    RENAPER_BASE_URL: 'http://renaper.test',
    SISA_USUARIO: 'usuario-test',
    SISA_CLAVE: SECRET_CLAVE,
    REGISTRY_TIMEOUT_MS: '100',
    REGISTRY_MAX_ATTEMPTS: '2',
    REGISTRY_BREAKER_THRESHOLD: '100',
    ...env,
  });
}

/** The app's own logger (same redaction), writing to memory. */
export function captureLogger(): { logger: Logger; raw: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createRootLogger('info', sink), raw: () => chunks.join('') };
}

export function resilienceFor(config: AppConfig, logger: Logger): ResilienceRegistry {
  return new ResilienceRegistry(config, logger, new MetricsService());
}
