import { LookupCache } from '../common/cache/lookup-cache.js';

/** What CodigosCatalogo reads of the mirror. */
export interface CodigosMirror {
  /** Which of `codes` the mirror holds. */
  existing(codes: string[]): Promise<string[]>;
  /** Whether any sync ever completed (the mirror's state row exists). */
  synced(): Promise<boolean>;
}

/**
 * Whether catalogue codes exist in the mirror (SPEC 9.2), asked on every registration with
 * codes, so answered from memory: each answer is kept `ttlMs` (every sync clears them), and the
 * misses of one turn of the event loop are read in one query. Before any sync, every code passes.
 */
export class CodigosCatalogo {
  private readonly known: LookupCache<true> | null;
  private everSynced = false;
  private batch: { codes: Set<string>; found: Promise<Set<string>> } | null = null;

  constructor(
    private readonly mirror: CodigosMirror,
    ttlMs: number,
  ) {
    // A miss reads the local mirror: not the slow work a key is held for (slowLoad).
    const options = { ttlMs, negativeTtlMs: ttlMs, maxEntries: 50_000, slowLoad: false };
    this.known = ttlMs > 0 ? new LookupCache<true>(options) : null;
  }

  clear(): void {
    this.known?.clear();
  }

  /** The codes of `codes` the catalogue does not hold (none while it never synced). */
  async desconocidos(codes: readonly string[]): Promise<Set<string>> {
    if (codes.length === 0 || !(await this.synced())) return new Set();
    const unique = [...new Set(codes)];
    const exists = await Promise.all(
      unique.map((code) =>
        this.known
          ? this.known.get(code, async () => ((await this.load(code)) ? true : null))
          : this.load(code),
      ),
    );
    return new Set(unique.filter((_, i) => !exists[i]));
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
