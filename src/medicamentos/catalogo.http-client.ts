import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { isAxiosError } from 'axios';
import { firstValueFrom } from 'rxjs';
import type { ResiliencePolicy } from '../common/resilience/resilience-policy.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CatalogoClient, type CatalogoItem, type CatalogoPage } from './catalogo.client.js';

const CATALOGO = 'catalogo';
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

const REQUIRED_TEXT = ['codigo', 'nombre_comercial', 'ifa'] as const;
const OPTIONAL_TEXT = [
  'concentracion',
  'forma_farmaceutica',
  'via',
  'presentacion',
  'laboratorio',
  'condicion_expendio',
] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Garbage from the upstream is its failure, not a bug of ours; not retried (it would repeat). */
const garbled = (what: string) => new UpstreamFailure(CATALOGO, `malformed answer: ${what}`, false);

/**
 * Decodes one page of `GET /catalogo/v1/medicamentos`: `{items, page, per_page, total}`.
 * An item without a code, a name or an active ingredient fails the whole page (a sync that
 * skipped it would delete it from the mirror); missing descriptive fields become "".
 */
export function decodeCatalogoPage(body: unknown): CatalogoPage {
  if (!isObject(body) || !Array.isArray(body.items)) throw garbled('no items array');
  const total = body.total;
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) {
    throw garbled('total is not a non-negative integer');
  }
  return { total, items: body.items.map((raw, i) => decodeItem(raw, i)) };
}

function decodeItem(raw: unknown, index: number): CatalogoItem {
  if (!isObject(raw)) throw garbled(`item ${index} is not an object`);
  const text: Record<string, string> = {};
  for (const field of REQUIRED_TEXT) {
    const value = raw[field];
    if (typeof value !== 'string' || value.trim() === '') {
      throw garbled(`item ${index}: ${field} missing`);
    }
    text[field] = value.trim();
  }
  for (const field of OPTIONAL_TEXT) {
    const value = raw[field];
    text[field] = typeof value === 'string' ? value.trim() : '';
  }
  const coberturas = raw.coberturas ?? [];
  if (!Array.isArray(coberturas) || !coberturas.every((c) => typeof c === 'string')) {
    throw garbled(`item ${index}: coberturas is not a list of strings`);
  }
  return { ...(text as Omit<CatalogoItem, 'coberturas'>), coberturas };
}
