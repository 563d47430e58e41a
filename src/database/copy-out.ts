import type { EntityManager } from 'typeorm';

/** The part of pg's connection a submittable query talks to. */
interface PgConnection {
  query(text: string): void;
}

/** The part of pg's client that runs a submittable query (pg calls its handle* methods). */
interface PgClient {
  query(submittable: CopyOut): unknown;
}

/**
 * `COPY (…) TO STDOUT` on the connection of `tx`, in its transaction: `onRow` gets each row as
 * PostgreSQL sends it (text format: fields separated by tabs, escaped, NULL as `\N`, the row
 * ending in a newline; one CopyData message per row), a view valid only during the call.
 * Resolves with the row count once the command ends; a throw from `onRow` stops the reading
 * (the rest of the stream is drained) and rejects with it.
 *
 * pg runs any object with `submit()` as a query (the "submittable" interface pg-cursor and
 * pg-copy-streams use); this is the few lines of it COPY TO needs, without a dependency. Rows
 * arrive as raw bytes: no per-field string, no type parsing, for the reads where those cost
 * more than the work done on the rows (the event log's verify: millions of rows).
 */
export async function copyOut(
  tx: EntityManager,
  sql: string,
  onRow: (row: Buffer) => void,
): Promise<number> {
  if (!tx.queryRunner) throw new Error('copyOut needs a transaction (EntityManager.transaction)');
  const client = (await tx.queryRunner.connect()) as PgClient;
  const copy = new CopyOut(sql, onRow);
  client.query(copy);
  return copy.done;
}

class CopyOut {
  /** pg's client sets this when it times the query (query_timeout): called when it ends. */
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

  submit(connection: PgConnection): void {
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
