import { Injectable } from '@nestjs/common';
import { Transactions } from '../transactions.js';

/** How long the openings read stay in memory: they change once a month. */
const CACHE_MS = 60_000;

interface Apertura {
  secuencia: string;
  primer_id: string;
  at: Date;
}

/**
 * The months' openings (`particiones_aperturas`) as a query by time needs them: the lowest id a
 * sequence drew at or after an instant. A query adds `id >= it` as a parameter, so the planner
 * leaves the months before out of the plan altogether (partitions pruned at planning, not only
 * at execution: planning a statement over every month's partition costs milliseconds). Read at
 * most once a minute: openings are only ever added, and an older list gives a lower bound —
 * fewer months skipped, never a row missed.
 */
@Injectable()
export class Aperturas {
  private cached?: { at: number; rows: Promise<Apertura[]> };

  constructor(private readonly transactions: Transactions) {}

  /** The lowest id `sequence` (`recetas.id_transaccion`) drew at or after `instant`. */
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
