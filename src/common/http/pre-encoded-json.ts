/**
 * A whole response body already encoded as JSON: sent byte for byte, neither wrapped in the
 * envelope nor re-serialised (an idempotent replay must repeat the first answer exactly).
 * Returned by a handler for a success; thrown as `PreEncodedError` for an error status.
 */
export class PreEncodedJson {
  constructor(readonly text: string) {}
}

/** An error answer already encoded: the exception filter sends `text` with `status` as is. */
export class PreEncodedError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`pre-encoded ${status} answer`);
    this.name = 'PreEncodedError';
  }
}
