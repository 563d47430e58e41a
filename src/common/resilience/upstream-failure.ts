/**
 * An external system failed in a way worth reporting (timeout, 5xx, garbage, quota, bad
 * credentials). Adapters throw it with the upstream's own code for the log; the resilience
 * policy counts it for the breaker, retries it when `retriable`, and turns it into
 * UPSTREAM_UNAVAILABLE for the client, which never sees the upstream code.
 */
export class UpstreamFailure extends Error {
  constructor(
    readonly system: string,
    /** The upstream's code or our short description: `ERROR_AUTENTICACION`, `HTTP 503`, `timeout`. */
    readonly upstreamCode: string,
    readonly retriable: boolean,
    options?: { cause?: unknown },
  ) {
    super(`${system} failed: ${upstreamCode}`, options);
    this.name = 'UpstreamFailure';
  }
}
