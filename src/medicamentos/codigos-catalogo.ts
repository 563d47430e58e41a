import { LookupCache } from '../common/cache/lookup-cache.js';

/** What CodigosCatalogo reads of the mirror. */
export interface CodigosMirror {
  /** Which of `codes` the mirror holds. */
  existing(codes: string[]): Promise<string[]>;
  /** Whether any sync ever completed (the mirror's state row exists). */
  synced(): Promise<boolean>;
}

/**
 * Whether catalogue codes exist in the mirror (SPEC 9.2: registration and dispensation refuse
 * unknown codes), asked on every registration that carries codes, so answered from memory:
 * each code's answer is kept `ttlMs` (a miss as long: a code the next sync brings is known at
 * once anyway, since every sync clears this), and the codes a request misses are read in one
 * query with those of requests arriving in the same turn of the event loop.
 *
 * While no sync ever completed nothing can be checked, and every code is accepted as before;
 * once one did, that stays true.
 */
export class CodigosCatalogo {
  private readonly known: LookupCache<true> | null;
  private everSynced = false;
  private batch: { codes: Set<string>; found: Promise<Set<string>> } | null = null;

  constructor(
    private readonly mirror: CodigosMirror,
    ttlMs: number,
  ) {
    this.known =
      ttlMs > 0
        ? new LookupCache<true>({
            ttlMs,
            negativeTtlMs: ttlMs,
            maxEntries: 50_000,
            // A miss reads the local mirror: not the slow work a key is held for.
            slowLoad: false,
          })
        : null;
  }

  /** Forgets every answer (a sync changed the mirror). */
  clear(): void {
    this.known?.clear();
  }

  /** The codes of `codes` the catalogue does not hold (none while it never synced). */
  async desconocidos(codes: readonly string[]): Promise<Set<string>> {
    const unknown = new Set<string>();
    if (codes.length === 0 || !(await this.synced())) return unknown;
    const unique = [...new Set(codes)];
    const exists = await Promise.all(
      unique.map((code) =>
        this.known
          ? this.known.get(code, async () => ((await this.load(code)) ? true : null))
          : this.load(code),
      ),
    );
    unique.forEach((code, i) => {
      if (!exists[i]) unknown.add(code);
    });
    return unknown;
  }

  private async synced(): Promise<boolean> {
    if (!this.everSynced) this.everSynced = await this.mirror.synced();
    return this.everSynced;
  }

  /** One code's existence, read with every other code asked for in this turn. */
  private async load(code: string): Promise<boolean> {
    if (!this.batch) {
      const codes = new Set<string>();
      const found = new Promise<Set<string>>((resolve, reject) =>
        setImmediate(() => {
          this.batch = null;
          this.mirror.existing([...codes]).then((rows) => resolve(new Set(rows)), reject);
        }),
      );
      this.batch = { codes, found };
    }
    this.batch.codes.add(code);
    return (await this.batch.found).has(code);
  }
}
