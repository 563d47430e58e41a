import { UpstreamFailure } from '../common/resilience/upstream-failure.js';
import type { CatalogoItem, CatalogoPage } from './catalogo.client.js';

export const CATALOGO = 'catalogo';

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
