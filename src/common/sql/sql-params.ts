/**
 * Numbered parameters for a statement composed from fragments written in different modules:
 * each fragment adds its values and writes the placeholder it gets back, so no fragment needs
 * to know how many parameters came before it.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value; returns its placeholder (`$n`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * A data-modifying statement meant to run inside another one's `WITH`, reading the row that
 * statement inserts from the CTE named `source` (column `id`). Runs in the same statement, so
 * it commits or fails with that insert, at no extra round trip.
 */
export type CompanionStatement = (p: SqlParams, source: string) => string;

/**
 * A SELECT run first inside another statement, returning a row when that statement must write
 * nothing (a rule held by another module's table, checked without a round trip of its own).
 */
export type GuardStatement = (p: SqlParams) => string;
