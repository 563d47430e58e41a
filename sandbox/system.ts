import type { InjectedMode, ServiceName } from './faults.js';
import type { Reply, SandboxRequest } from './http.js';

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Anchored pattern over the path; capture groups are handed to the handler. */
  path: RegExp;
  /** `injected` is set when a fault asks the system to answer in its own failure words. */
  handle(req: SandboxRequest, params: string[], injected?: InjectedMode): Reply;
  /** false: the route answers normally whatever fault its system has (default true). */
  faultable?: boolean;
}

/** One emulated external system: its routes are counted and subject to its faults. */
export interface EmulatedSystem {
  service: ServiceName;
  routes: Route[];
  /** What the system looks like when it is down (fault mode "error"). */
  unavailable(): Reply;
  reset(): void;
}
