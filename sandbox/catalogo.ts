/**
 * Medication catalogue. ANMAT publishes no API for its Vademécum, so this small JSON API is
 * ours; the service mirrors it with a scheduled sync:
 *   GET /catalogo/v1/medicamentos?page=1&per_page=100  → {items, page, per_page, total}
 *       ordered by codigo (all codes have 7 digits, so text and numeric order agree);
 *       per_page 1–1000; a page past the end has no items.
 *   GET /catalogo/v1/medicamentos/{codigo}             → the item, or 404
 * Tests change the catalogue through /__sandbox/catalogo/items/{codigo} (see control.ts).
 */
import { isPlainObject, json, jsonError, type Reply, type SandboxRequest } from './http.js';
import type { EmulatedSystem } from './system.js';
import type { Medicamento } from './fixtures/medicamentos.js';

const MAX_PER_PAGE = 1000;
const DEFAULT_PER_PAGE = 100;

const TEXT_FIELDS = [
  'nombre_comercial',
  'ifa',
  'concentracion',
  'forma_farmaceutica',
  'via',
  'presentacion',
  'laboratorio',
  'condicion_expendio',
] as const;

export class CatalogoStore {
  private items = new Map<string, Medicamento>();
  private sorted: Medicamento[] | undefined;

  constructor(private readonly base: readonly Medicamento[]) {
    this.reset();
  }

  reset(): void {
    this.items = new Map(this.base.map((m) => [m.codigo, m]));
    this.sorted = undefined;
  }

  get size(): number {
    return this.items.size;
  }

  get(codigo: string): Medicamento | undefined {
    return this.items.get(codigo);
  }

  page(page: number, perPage: number): Medicamento[] {
    this.sorted ??= [...this.items.values()].sort((a, b) =>
      a.codigo < b.codigo ? -1 : a.codigo > b.codigo ? 1 : 0,
    );
    return this.sorted.slice((page - 1) * perPage, page * perPage);
  }

  /** Adds or replaces; true when the code was new. */
  put(item: Medicamento): boolean {
    const created = !this.items.has(item.codigo);
    this.items.set(item.codigo, item);
    this.sorted = undefined;
    return created;
  }

  remove(codigo: string): boolean {
    const removed = this.items.delete(codigo);
    if (removed) this.sorted = undefined;
    return removed;
  }
}

/** Validates a PUT body for the item at `codigo`; returns the item or an error message. */
export function parseMedicamento(codigo: string, body: unknown): Medicamento | string {
  if (!isPlainObject(body)) return 'body must be a JSON object';
  if (body.codigo !== undefined && body.codigo !== codigo) {
    return 'codigo in the body differs from the one in the path';
  }
  for (const field of TEXT_FIELDS) {
    const value = body[field];
    if (typeof value !== 'string' || value.trim() === '') {
      return `${field} must be a non-empty string`;
    }
  }
  const coberturas = body.coberturas ?? [];
  if (!Array.isArray(coberturas) || !coberturas.every((c) => typeof c === 'string')) {
    return 'coberturas must be an array of strings';
  }
  const actualizado = body.actualizado ?? new Date().toISOString().slice(0, 10);
  if (typeof actualizado !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(actualizado)) {
    return 'actualizado must be a date YYYY-MM-DD';
  }
  const text = Object.fromEntries(TEXT_FIELDS.map((f) => [f, body[f] as string]));
  return { codigo, ...text, coberturas, actualizado } as Medicamento;
}

function positiveInt(raw: string | null, fallback: number): number | undefined {
  if (raw === null) return fallback;
  return /^\d{1,9}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : undefined;
}

export function createCatalogo(store: CatalogoStore): EmulatedSystem {
  const list = (req: SandboxRequest): Reply => {
    const page = positiveInt(req.query.get('page'), 1);
    const perPage = positiveInt(req.query.get('per_page'), DEFAULT_PER_PAGE);
    if (page === undefined) return jsonError(400, 'PARAMETRO_INVALIDO', 'page must be >= 1');
    if (perPage === undefined || perPage > MAX_PER_PAGE) {
      return jsonError(400, 'PARAMETRO_INVALIDO', `per_page must be from 1 to ${MAX_PER_PAGE}`);
    }
    return json(200, {
      items: store.page(page, perPage),
      page,
      per_page: perPage,
      total: store.size,
    });
  };

  const one = (_req: SandboxRequest, [codigo]: string[]): Reply => {
    const item = store.get(decodeURIComponent(codigo));
    return item
      ? json(200, item)
      : jsonError(404, 'NO_ENCONTRADO', `No medication with codigo ${codigo}`);
  };

  return {
    service: 'catalogo',
    routes: [
      { method: 'GET', path: /^\/catalogo\/v1\/medicamentos\/?$/, handle: list },
      { method: 'GET', path: /^\/catalogo\/v1\/medicamentos\/([^/]+)$/, handle: one },
    ],
    unavailable: () =>
      jsonError(503, 'SERVICIO_NO_DISPONIBLE', 'Catálogo temporalmente no disponible'),
    reset: () => store.reset(),
  };
}
