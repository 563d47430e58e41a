/**
 * The sandbox's own control and introspection API under /__sandbox. These routes are never
 * counted and never faulted.
 *   POST   /__sandbox/faults              {service, mode, rate?, delay_ms?} → 200 the setting
 *   GET    /__sandbox/faults              → {faults: [...]}
 *   DELETE /__sandbox/faults              → 204, every system back to normal
 *   GET    /__sandbox/calls               → {refeps, renaper, catalogo, ministerio}
 *   GET    /__sandbox/calls/routes        → {"<service> <METHOD> <path>": n}
 *   DELETE /__sandbox/calls               → 204
 *   POST   /__sandbox/reset               → 204: faults, counters, pointers, tokens, catalogue
 *   PUT    /__sandbox/catalogo/items/{c}  item → 201 created / 200 replaced
 *   DELETE /__sandbox/catalogo/items/{c}  → 204, or 404
 *   GET    /__sandbox/ministerio/punteros[?cuir=] → {punteros: [...]}
 *   GET    /__sandbox/health              → {status: "ok"}
 */
import { CatalogoStore, parseMedicamento } from './catalogo.js';
import type { CallCounter } from './calls.js';
import { FaultBoard, parseFaultRequest } from './faults.js';
import { json, jsonError, noContent, parseJson, type Reply, type SandboxRequest } from './http.js';
import type { MinisterioState } from './ministerio.js';

export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: RegExp;
  handle(req: SandboxRequest, params: string[]): Reply;
}

export interface SandboxState {
  faults: FaultBoard;
  calls: CallCounter;
  catalogo: CatalogoStore;
  ministerio: MinisterioState;
  /** Back to the state right after start. */
  reset(): void;
}

function badRequest(mensaje: string): Reply {
  return jsonError(400, 'DATOS_INVALIDOS', mensaje);
}

export function controlRoutes(state: SandboxState): ControlRoute[] {
  return [
    {
      method: 'POST',
      path: /^\/__sandbox\/faults$/,
      handle: (req) => {
        const parsed = parseFaultRequest(parseJson(req.body));
        if (typeof parsed === 'string') return badRequest(parsed);
        state.faults.set(parsed);
        const { service, mode, rate, delay_ms } = parsed;
        return json(
          200,
          mode === 'slow' ? { service, mode, rate, delay_ms } : { service, mode, rate },
        );
      },
    },
    {
      method: 'GET',
      path: /^\/__sandbox\/faults$/,
      handle: () => json(200, { faults: state.faults.list() }),
    },
    {
      method: 'DELETE',
      path: /^\/__sandbox\/faults$/,
      handle: () => {
        state.faults.clear();
        return noContent();
      },
    },
    {
      method: 'GET',
      path: /^\/__sandbox\/calls$/,
      handle: () => json(200, state.calls.byService()),
    },
    {
      method: 'GET',
      path: /^\/__sandbox\/calls\/routes$/,
      handle: () => json(200, state.calls.byRoute()),
    },
    {
      method: 'DELETE',
      path: /^\/__sandbox\/calls$/,
      handle: () => {
        state.calls.reset();
        return noContent();
      },
    },
    {
      method: 'POST',
      path: /^\/__sandbox\/reset$/,
      handle: () => {
        state.reset();
        return noContent();
      },
    },
    {
      method: 'PUT',
      path: /^\/__sandbox\/catalogo\/items\/([^/]+)$/,
      handle: (req, [raw]) => {
        const item = parseMedicamento(decodeURIComponent(raw), parseJson(req.body));
        if (typeof item === 'string') return badRequest(item);
        return json(state.catalogo.put(item) ? 201 : 200, item);
      },
    },
    {
      method: 'DELETE',
      path: /^\/__sandbox\/catalogo\/items\/([^/]+)$/,
      handle: (_req, [raw]) =>
        state.catalogo.remove(decodeURIComponent(raw))
          ? noContent()
          : jsonError(404, 'NO_ENCONTRADO', `No medication with codigo ${raw}`),
    },
    {
      method: 'GET',
      path: /^\/__sandbox\/ministerio\/punteros$/,
      handle: (req) =>
        json(200, { punteros: state.ministerio.list(req.query.get('cuir') ?? undefined) }),
    },
    {
      method: 'GET',
      path: /^\/__sandbox\/health$/,
      handle: () => json(200, { status: 'ok' }),
    },
  ];
}
