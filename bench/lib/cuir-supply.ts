import type pg from 'pg';
import { CUIR_HEAD, type ApiCredentials } from './db.js';
import { log } from './log.js';
import { runTag } from './run-tag.js';

let lanes = 0;

/**
 * CUIRs issued to one client, for its registrations: only CUIRs issued to the caller register
 * (contract §3), so a platform generates its CUIRs first. The bench issues a range up front, in
 * bulk, straight into `cuir_owners` (what POST /v1/cuir/generar records as the owner), so each
 * measured registration is one request, as a platform that generated its CUIRs earlier sends.
 * Group ids: `1` + the run's tag + the range's lane + a counter (seeded rows' start with 2–9).
 */
export class CuirSupply {
  private used = 0;
  private warned = false;

  constructor(
    private readonly head: string,
    readonly size: number,
  ) {}

  next(): string {
    if (++this.used > this.size && !this.warned) {
      this.warned = true;
      log(`CUIR supply of ${this.size} exhausted: further registrations answer 422 CUIR_NOT_OWNED`);
    }
    return `${this.head}${String(this.used).padStart(14, '0')}01`;
  }
}

/** A client that registers: the CUIRs issued to it. */
export interface Registrant extends ApiCredentials {
  cuirs: CuirSupply;
}

/** Issues `size` CUIRs to `clientId` in the database of `pool` (about 4 s per million). */
export async function issueCuirs(pool: pg.Pool, clientId: string, size: number) {
  const lane = ++lanes;
  if (lane > 9) throw new Error('at most 9 CUIR supplies per bench run');
  const head = `${CUIR_HEAD}1${runTag}${lane}`;
  await pool.query(
    `INSERT INTO cuir_owners (cuir, client_id)
     SELECT $1 || lpad(g::text, 14, '0') || '01', $2 FROM generate_series(1, $3::int) g`,
    [head, clientId, size],
  );
  return new CuirSupply(head, size);
}
