import type { EntityManager } from 'typeorm';

/**
 * `COPY (…) TO STDOUT` in `tx`'s transaction: `onRow` gets each row's raw text-format bytes (a
 * view valid only during the call), for reads of millions of rows where parsing would cost more
 * than the work. Resolves with the row count; a throw from `onRow` stops it and rejects with it.
 * A pg "submittable" (as pg-copy-streams), the few lines COPY TO needs.
 */
export async function copyOut(
  tx: EntityManager,
  sql: string,
  onRow: (row: Buffer) => void,
): Promise<number> {
  if (!tx.queryRunner) throw new Error('copyOut needs a transaction (EntityManager.transaction)');
  const client = (await tx.queryRunner.connect()) as { query(submittable: CopyOut): unknown };
  const copy = new CopyOut(sql, onRow);
  client.query(copy);
  return copy.done;
}

class CopyOut {
  /** Set by pg when it times the query (query_timeout): called when it ends. */
  callback?: (err: unknown) => void;
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (err: unknown) => void;
  private failure: unknown = null;
  private rows = 0;

  constructor(
    private readonly text: string,
    private readonly onRow: (row: Buffer) => void,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(msg: { chunk: Buffer }): void {
    if (this.failure !== null) return;
    this.rows++;
    try {
      this.onRow(msg.chunk);
    } catch (err) {
      this.failure = err;
    }
  }

  /** pg forgets the query at an error (no ReadyForQuery call follows for it): settle now. */
  handleError(err: unknown): void {
    this.failure = this.failure ?? err;
    this.callback?.(this.failure);
    this.reject(this.failure);
  }

  handleReadyForQuery(): void {
    this.callback?.(this.failure);
    if (this.failure !== null) this.reject(this.failure);
    else this.resolve(this.rows);
  }

  // The other messages of a simple query carry nothing COPY TO needs.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
}
