/** An external system failed; the upstream's code is logged, never shown to the client. */
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
