import { Injectable } from '@nestjs/common';
import { Transactions } from '../transactions.js';

const CACHE_MS = 60_000;

interface Apertura {
  secuencia: string;
  primer_id: string;
  at: Date;
}

/**
 * The lowest id a sequence drew at or after an instant (`particiones_aperturas`), which a query
 * by time adds as `id >= it` so the planner prunes the months before. Read at most once a
 * minute: an older list gives a lower bound, never a row missed.
 */
@Injectable()
export class Aperturas {
  private cached?: { at: number; rows: Promise<Apertura[]> };

  constructor(private readonly transactions: Transactions) {}

  async primerIdDesde(sequence: string, instant: Date): Promise<string> {
    const rows = await this.rows();
    let best = 0n;
    for (const a of rows) {
      if (a.secuencia === sequence && a.at <= instant && BigInt(a.primer_id) > best)
        best = BigInt(a.primer_id);
    }
    return best.toString();
  }

  private rows(): Promise<Apertura[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > CACHE_MS) {
      const rows = this.transactions.manager
        .query<Apertura[]>(`SELECT secuencia, primer_id::text, at FROM particiones_aperturas`)
        .catch((err: unknown) => {
          this.cached = undefined; // not kept: the next call asks again
          throw err;
        });
      this.cached = { at: now, rows };
    }
    return this.cached.rows;
  }
}
