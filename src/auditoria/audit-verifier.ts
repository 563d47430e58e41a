import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  eventHash,
  GENESIS,
  idsOf,
  parseIdRanges,
  rangesSize,
  sealHash,
  type IdRanges,
} from './audit-hash.js';
import { type SealRow, SellosRepository } from './sellos.repository.js';

export interface VerifyReport {
  ok: boolean;
  /** Seals whose chain was checked (purged ones included). */
  sellos: number;
  /** Seals whose events a purge removed: only their chain is checked. */
  sellos_purgados: number;
  /** Sealed events whose hash, seal membership and digest were checked. */
  eventos: number;
  /** Events written after the last seal's boundary: not sealed yet, so not checkable yet. */
  pendientes: number;
  /** The chain's head, to be kept elsewhere (a truncated chain is only caught against it). */
  ultimo_sello: { id: string; hash: string } | null;
  /** What does not match, first first: `event 12: altered`, `seal 3: chain broken`… */
  problemas: string[];
}

const PAGE = 5000;
const SEAL_PAGE = 500;
/** Enough to see what happened; past it, verify stops (a mass deletion would list millions). */
const MAX_PROBLEMS = 20;

/**
 * Recomputes the chain and every sealed event. Per seal: it follows the previous one (number,
 * boundary, hash) and its hash is recomputed; then its events are walked in id order: each
 * event's hash is recomputed from its fields (an altered event is named), each id the seal
 * covers must be there (a deleted one is named) and written inside the seal's transaction
 * range, and their hashes must give the seal's digest (an event altered and re-hashed names
 * the seal); finally an event written in that range but not covered by the seal is named as
 * inserted. All in one read-only snapshot, so a seal or purge meanwhile cannot confuse it.
 */
export class AuditVerifier {
  constructor(private readonly sellos: SellosRepository) {}

  verify(): Promise<VerifyReport> {
    return this.sellos.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return this.walk(tx);
    });
  }

  private async walk(tx: EntityManager): Promise<VerifyReport> {
    const head = await this.sellos.lastSeal(tx);
    const r: VerifyReport = {
      ok: true,
      sellos: 0,
      sellos_purgados: 0,
      eventos: 0,
      pendientes: await this.sellos.countPending(tx, head?.xid_hasta ?? '0'),
      ultimo_sello: head && { id: head.id, hash: head.hash.toString('hex') },
      problemas: [],
    };
    const problems = new Problems(r.problemas);
    let prev: SealRow | null = null;
    while (!problems.full) {
      const page = await this.sellos.sealsAfter(tx, prev?.id ?? '0', SEAL_PAGE);
      if (page.length === 0) break;
      for (const seal of page) {
        this.checkLink(seal, prev, problems);
        r.sellos++;
        if (seal.purgado) r.sellos_purgados++;
        else r.eventos += await this.checkEvents(tx, seal, problems);
        // After a purge no event may remain in its range: every one present is a stranger.
        const ids = seal.purgado ? '{}' : seal.ids;
        const { xid_desde: desde, xid_hasta: hasta } = seal;
        const strangers = await this.sellos.strangers(tx, desde, hasta, ids, MAX_PROBLEMS);
        for (const id of strangers) {
          problems.add(`event ${id}: not covered by seal ${seal.id} (inserted)`);
        }
        prev = seal;
        if (problems.full) break;
      }
    }
    r.ok = r.problemas.length === 0;
    return r;
  }

  /** The seal follows `prev` (number, boundary, previous hash) and its own hash holds. */
  private checkLink(seal: SealRow, prev: SealRow | null, problems: Problems): void {
    const problem = (p: string) => problems.add(p);
    const expectedId = prev ? BigInt(prev.id) + 1n : 1n;
    if (BigInt(seal.id) !== expectedId) problem(`seal ${expectedId}: missing (chain broken)`);
    else if (seal.xid_desde !== (prev?.xid_hasta ?? '0'))
      problem(`seal ${seal.id}: chain broken (its range does not start where the previous ends)`);
    else if (!seal.hash_anterior.equals(prev?.hash ?? GENESIS))
      problem(`seal ${seal.id}: chain broken (previous hash differs)`);
    if (!sealHash(seal.hash_anterior, seal, seal.digest).equals(seal.hash))
      problem(`seal ${seal.id}: altered (its hash does not match its fields)`);
  }

  /** Walks the seal's events; returns how many were checked. */
  private async checkEvents(tx: EntityManager, seal: SealRow, problems: Problems): Promise<number> {
    const problem = (p: string) => problems.add(p);
    let ranges: IdRanges;
    try {
      ranges = parseIdRanges(seal.ids);
    } catch {
      problem(`seal ${seal.id}: altered (unreadable id set)`);
      return 0;
    }
    if (rangesSize(ranges) !== BigInt(seal.eventos)) {
      problem(`seal ${seal.id}: altered (its id set does not hold its event count)`);
    }
    const expected = idsOf(ranges);
    const digest = createHash('sha256');
    let found = 0;
    let eventProblems = 0;
    const eventProblem = (p: string) => {
      eventProblems++;
      problem(p);
    };
    let next = expected.next();
    let after = '0';
    for (let rows = await this.sellos.eventsIn(tx, seal.ids, after, PAGE); rows.length > 0;) {
      for (const e of rows) {
        const id = BigInt(e.id);
        for (; !next.done && next.value < id && !problems.full; next = expected.next()) {
          eventProblem(`event ${next.value}: deleted (sealed by seal ${seal.id})`);
        }
        next = expected.next();
        if (!eventHash(e).equals(e.hash)) eventProblem(`event ${e.id}: altered`);
        else if (!inRange(e.xid, seal))
          eventProblem(`event ${e.id}: altered (moved out of seal ${seal.id})`);
        digest.update(e.hash);
        found++;
      }
      after = rows[rows.length - 1].id;
      rows =
        rows.length < PAGE || problems.full
          ? []
          : await this.sellos.eventsIn(tx, seal.ids, after, PAGE);
    }
    for (; !next.done && !problems.full; next = expected.next()) {
      eventProblem(`event ${next.value}: deleted (sealed by seal ${seal.id})`);
    }
    // Only when every event looked right: then a different digest means one was re-hashed.
    if (eventProblems === 0 && !digest.digest().equals(seal.digest)) {
      problem(
        `seal ${seal.id}: its events do not match its digest (an event was altered and re-hashed)`,
      );
    }
    return found;
  }
}

const inRange = (xid: string, seal: SealRow): boolean =>
  BigInt(xid) >= BigInt(seal.xid_desde) && BigInt(xid) < BigInt(seal.xid_hasta);

/** The problems found, up to MAX_PROBLEMS. */
class Problems {
  constructor(private readonly list: string[]) {}

  get full(): boolean {
    return this.list.length >= MAX_PROBLEMS;
  }

  add(p: string): void {
    if (!this.full) this.list.push(p);
  }
}
