/**
 * Switchable faults, one per emulated system. Which calls are faulted is deterministic so that
 * tests asserting on a fraction of failures are stable: with rate r, the n-th call (n = 0, 1, …,
 * counted from the moment the fault was set) is faulted when floor((n + 1) · r) > floor(n · r).
 * Rate 1 faults every call, rate 0.5 alternates ok, fault, ok, fault… (the first call is ok),
 * rate 0.25 faults calls 3, 7, 11…, rate 0 faults none.
 *
 * What a faulted call does: error → 503 (SISA: an HTML page; ours: JSON), the system does
 * nothing; timeout → the system does its work (the ministry stores the pointer) but the answer
 * never leaves, until the client gives up or the sandbox closes; slow → the work is done at once
 * and the normal answer leaves delay_ms later; quota/auth → SISA's HTTP 200 with its resultado
 * code; reject → the ministry's 422 RECHAZADO, nothing stored.
 */
export const SERVICES = ['refeps', 'renaper', 'catalogo', 'ministerio'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const MODES = ['ok', 'error', 'timeout', 'slow', 'reject', 'quota', 'auth'] as const;
export type FaultMode = (typeof MODES)[number];
/** The modes a system answers in its own words rather than with a generic HTTP failure. */
export type InjectedMode = Extract<FaultMode, 'reject' | 'quota' | 'auth'>;

// quota/auth are answers only SISA gives (HTTP 200 with a resultado code); only the ministry
// takes decisions it can reject. Refusing other pairs catches typos in tests early.
const ALLOWED: Record<ServiceName, readonly FaultMode[]> = {
  refeps: ['ok', 'error', 'timeout', 'slow', 'quota', 'auth'],
  renaper: ['ok', 'error', 'timeout', 'slow', 'quota', 'auth'],
  catalogo: ['ok', 'error', 'timeout', 'slow'],
  ministerio: ['ok', 'error', 'timeout', 'slow', 'reject'],
};

export const DEFAULT_SLOW_MS = 1500;
const MAX_DELAY_MS = 10 * 60 * 1000;

export interface FaultSetting {
  service: ServiceName;
  mode: Exclude<FaultMode, 'ok'>;
  rate: number;
  delay_ms: number;
}

export type FaultRequest = Omit<FaultSetting, 'mode'> & { mode: FaultMode };

/** Pure: true when call n (0-based) falls on a faulted slot for this rate. */
export function isFaultedCall(n: number, rate: number): boolean {
  return Math.floor((n + 1) * rate) > Math.floor(n * rate);
}

/** Validates a POST /__sandbox/faults body; returns the setting or an error message. */
export function parseFaultRequest(body: unknown): FaultRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'body must be a JSON object';
  }
  const { service, mode, rate = 1, delay_ms = DEFAULT_SLOW_MS } = body as Record<string, unknown>;
  if (!SERVICES.includes(service as ServiceName)) {
    return `service must be one of ${SERVICES.join(', ')}`;
  }
  if (!MODES.includes(mode as FaultMode)) return `mode must be one of ${MODES.join(', ')}`;
  const svc = service as ServiceName;
  if (!ALLOWED[svc].includes(mode as FaultMode)) {
    return `mode ${String(mode)} does not apply to ${svc} (allowed: ${ALLOWED[svc].join(', ')})`;
  }
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    return 'rate must be a number from 0 to 1';
  }
  if (
    typeof delay_ms !== 'number' ||
    !Number.isInteger(delay_ms) ||
    delay_ms < 0 ||
    delay_ms > MAX_DELAY_MS
  ) {
    return `delay_ms must be an integer from 0 to ${MAX_DELAY_MS}`;
  }
  return { service: svc, mode: mode as FaultMode, rate, delay_ms };
}

export class FaultBoard {
  private readonly faults = new Map<ServiceName, { setting: FaultSetting; calls: number }>();

  /** Setting mode "ok" removes the service's fault. Setting a fault restarts its call count. */
  set(request: FaultRequest): void {
    if (request.mode === 'ok') {
      this.faults.delete(request.service);
      return;
    }
    this.faults.set(request.service, {
      setting: { ...request, mode: request.mode },
      calls: 0,
    });
  }

  clear(): void {
    this.faults.clear();
  }

  list(): FaultSetting[] {
    return SERVICES.flatMap((s) => {
      const fault = this.faults.get(s);
      return fault ? [{ ...fault.setting }] : [];
    });
  }

  /** Consumes one call slot of the service and says whether (and how) to fault it. */
  next(service: ServiceName): FaultSetting | undefined {
    const fault = this.faults.get(service);
    if (!fault) return undefined;
    const n = fault.calls++;
    return isFaultedCall(n, fault.setting.rate) ? fault.setting : undefined;
  }
}
