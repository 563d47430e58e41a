/** Numbered parameters for a statement composed from fragments of different modules. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** Adds a value; returns its placeholder (`$n`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A data-modifying statement run inside another's `WITH`, reading its inserted row from CTE `source`. */
export type CompanionStatement = (p: SqlParams, source: string) => string;

/** A SELECT run first inside another statement, returning a row when that one must write nothing. */
export type GuardStatement = (p: SqlParams) => string;
