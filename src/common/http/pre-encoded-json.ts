/** A success body already encoded, sent byte for byte (an idempotent replay repeats the first). */
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
