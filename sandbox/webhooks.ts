/**
 * A webhook receiver, so the service's signed event deliveries can be tested over real HTTP.
 * Each receiver is named by the path segment; what it got is kept in memory.
 *   POST /__sandbox/webhooks/{name}          an event delivery → 204 (or 500 while failing)
 *   GET  /__sandbox/webhooks/{name}          → {deliveries: [{headers, body, received_at, answered}]}
 *   POST /__sandbox/webhooks/{name}/fail     {times} → the next `times` deliveries answer 500
 */
import type { ControlRoute } from './control.js';
import { json, jsonError, noContent, parseJson } from './http.js';

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  received_at: string;
  answered: number;
}

interface Receiver {
  deliveries: Delivery[];
  failNext: number;
}

export class WebhookReceivers {
  private readonly receivers = new Map<string, Receiver>();

  private get(name: string): Receiver {
    let r = this.receivers.get(name);
    if (!r) {
      r = { deliveries: [], failNext: 0 };
      this.receivers.set(name, r);
    }
    return r;
  }

  routes(): ControlRoute[] {
    return [
      {
        method: 'POST',
        path: /^\/__sandbox\/webhooks\/([A-Za-z0-9_-]{1,64})\/fail$/,
        handle: (req, [name]) => {
          const body = parseJson(req.body) as { times?: unknown } | undefined;
          const times = body?.times;
          if (typeof times !== 'number' || !Number.isInteger(times) || times < 0) {
            return jsonError(400, 'DATOS_INVALIDOS', 'times must be a whole number');
          }
          this.get(name).failNext = times;
          return json(200, { name, fail_next: times });
        },
      },
      {
        method: 'POST',
        path: /^\/__sandbox\/webhooks\/([A-Za-z0-9_-]{1,64})$/,
        handle: (req, [name]) => {
          const r = this.get(name);
          const failing = r.failNext > 0;
          if (failing) r.failNext--;
          const answered = failing ? 500 : 204;
          r.deliveries.push({
            headers: req.headers,
            body: req.body,
            received_at: new Date().toISOString(),
            answered,
          });
          return failing
            ? jsonError(500, 'FALLA_SIMULADA', 'receiver failing on purpose')
            : noContent();
        },
      },
      {
        method: 'GET',
        path: /^\/__sandbox\/webhooks\/([A-Za-z0-9_-]{1,64})$/,
        handle: (_req, [name]) => json(200, { deliveries: this.get(name).deliveries }),
      },
    ];
  }

  reset(): void {
    this.receivers.clear();
  }
}
