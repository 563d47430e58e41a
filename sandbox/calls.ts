import { SERVICES, type ServiceName } from './faults.js';

/** How many requests each emulated system received, so tests can assert on caching/retries. */
export class CallCounter {
  private totals = new Map<ServiceName, number>();
  private routes = new Map<string, number>();

  count(service: ServiceName, route: string): void {
    this.totals.set(service, (this.totals.get(service) ?? 0) + 1);
    const key = `${service} ${route}`;
    this.routes.set(key, (this.routes.get(key) ?? 0) + 1);
  }

  byService(): Record<ServiceName, number> {
    return Object.fromEntries(SERVICES.map((s) => [s, this.totals.get(s) ?? 0])) as Record<
      ServiceName,
      number
    >;
  }

  /** Keyed "<service> <METHOD> <path>", e.g. "ministerio POST /v1/punteros". */
  byRoute(): Record<string, number> {
    return Object.fromEntries(this.routes);
  }

  reset(): void {
    this.totals.clear();
    this.routes.clear();
  }
}
