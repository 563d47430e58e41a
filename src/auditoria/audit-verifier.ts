import type { EntityManager } from 'typeorm';
import { DomainError } from '../common/errors/domain-error.js';
import { CopiedEvent, HashBytes } from './audit-copy.js';
import {
  GENESIS,
  idsOf,
  parseIdRanges,
  rangesSize,
  sealHash,
  type IdRanges,
} from './audit-hash.js';
import { type SealRow, AuditSealsRepository } from './audit-seals.repository.js';

export interface VerifyReport {
  ok: boolean;
  /**
   * With `desde`: the seal taken as the first link, and its stored hash (compare it with the one
   * kept from an earlier run). It and the seals and events before it are not examined.
   */
  desde?: { id: string; hash: string };
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

const SEAL_PAGE = 500;
/** Enough to see what happened; past it, verify stops (a mass deletion would list millions). */
const MAX_PROBLEMS = 20;

/** What a walk over a seal's events saw. */
interface SealEvents {
  /** Events of the seal's id set present (all read, unless verify stopped at MAX_PROBLEMS). */
  found: number;
  /** Of those, the ones written inside the seal's transaction range. */
  inRange: number;
}

/**
 * Recomputes the chain and every sealed event. Per seal: it follows the previous one (number,
 * boundary, hash) and its hash is recomputed; then its events are walked in id order: each
 * event's hash is recomputed from its fields (an altered event is named), each id the seal
 * covers must be there (a deleted one is named) and written inside the seal's transaction
 * range, and their hashes must give the seal's digest (an event altered and re-hashed names
 * the seal); finally an event written in that range but not covered by the seal is named as
 * inserted. All in one read-only snapshot, so a seal or purge meanwhile cannot confuse it.
 *
 * From a seal on (`desde`): the same from the next seal, the given seal's stored hash and
 * boundary being the first link, as the genesis is for a full check.
 *
 * The events are read as COPY rows and hashed from their bytes (audit-copy.ts): ~5× the rate of
 * reading them as rows of strings (BENCHMARKS.md, "The event log at scale").
 */
export class AuditVerifier {
  constructor(private readonly sellos: AuditSealsRepository) {}

  verify(options: { desde?: string } = {}): Promise<VerifyReport> {
    return this.sellos.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await this.sellos.copySettings(tx);
      return this.walk(tx, options.desde);
    });
  }

  private async walk(tx: EntityManager, desde: string | undefined): Promise<VerifyReport> {
    const head = await this.sellos.lastSeal(tx);
    let prev: SealRow | null = null;
    if (desde !== undefined) {
      prev = /^[1-9][0-9]{0,18}$/.test(desde) ? await this.sellos.seal(tx, desde) : null;
      if (!prev) {
        const known = head ? `the seals are 1 to ${head.id}` : 'there is no seal yet';
        throw new DomainError('NOT_FOUND', `seal ${desde} does not exist (${known})`);
      }
    }
    const r: VerifyReport = {
      ok: true,
      ...(prev && { desde: { id: prev.id, hash: prev.hash.toString('hex') } }),
      sellos: 0,
      sellos_purgados: 0,
      eventos: 0,
      pendientes: await this.sellos.countPending(tx, head?.xid_hasta ?? '0'),
      ultimo_sello: head && { id: head.id, hash: head.hash.toString('hex') },
      problemas: [],
    };
    const problems = new Problems(r.problemas);
    while (!problems.full) {
      const page = await this.sellos.sealsAfter(tx, prev?.id ?? '0', SEAL_PAGE);
      if (page.length === 0) break;
      for (const seal of page) {
        this.checkLink(seal, prev, problems);
        r.sellos++;
        let inRange = 0;
        if (seal.purgado) r.sellos_purgados++;
        else {
          const seen = await this.checkEvents(tx, seal, problems);
          r.eventos += seen.found;
          inRange = seen.inRange;
        }
        // Events its transactions wrote that it does not cover (after a purge: any left) were
        // inserted. Counted first (the xid index alone); named only when there are some.
        const { xid_desde: from, xid_hasta: to } = seal;
        if (!problems.full && (await this.sellos.countWrittenIn(tx, from, to)) > inRange) {
          const ids = seal.purgado ? '{}' : seal.ids;
          for (const id of await this.sellos.strangers(tx, from, to, ids, MAX_PROBLEMS)) {
            problems.add(`event ${id}: not covered by seal ${seal.id} (inserted)`);
          }
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

  /**
   * Walks the seal's events in one pass that only hashes; when an id the seal covers is
   * missing, walks them again id by id to name it in its place among the other problems.
   */
  private async checkEvents(
    tx: EntityManager,
    seal: SealRow,
    problems: Problems,
  ): Promise<SealEvents> {
    let ranges: IdRanges;
    try {
      ranges = parseIdRanges(seal.ids);
    } catch {
      problems.add(`seal ${seal.id}: altered (unreadable id set)`);
      return { found: 0, inRange: 0 };
    }
    const size = rangesSize(ranges);
    if (size !== BigInt(seal.eventos)) {
      problems.add(`seal ${seal.id}: altered (its id set does not hold its event count)`);
    }
    const own: string[] = [];
    const digest = new HashBytes();
    const seen: SealEvents = { found: 0, inRange: 0 };
    const xids = xidBounds(seal);
    const ev = new CopiedEvent();
    await this.eachEvent(tx, seal, ranges, (row) => {
      seen.found++;
      if (own.length >= problems.room) return; // this seal alone fills the list
      ev.load(row);
      const inRange = ev.xidIn(xids.from, xids.to);
      if (inRange) seen.inRange++;
      if (!ev.hashMatches()) own.push(`event ${ev.id}: altered`);
      else if (!inRange) own.push(`event ${ev.id}: altered (moved out of seal ${seal.id})`);
      ev.addStoredHash(digest);
    });
    // Every row is an id of the set (the query's filter), each once: all there, or some deleted.
    if (BigInt(seen.found) !== size) return this.checkEventsById(tx, seal, ranges, problems);
    for (const p of own) problems.add(p);
    // Only when every event looked right: then a different digest means one was re-hashed.
    if (own.length === 0 && !digest.digest().equals(seal.digest)) {
      problems.add(
        `seal ${seal.id}: its events do not match its digest (an event was altered and re-hashed)`,
      );
    }
    return seen;
  }

  /** The walk that names deleted events, in id order with the others' problems. */
  private async checkEventsById(
    tx: EntityManager,
    seal: SealRow,
    ranges: IdRanges,
    problems: Problems,
  ): Promise<SealEvents> {
    let eventProblems = 0;
    const eventProblem = (p: string) => {
      eventProblems++;
      problems.add(p);
    };
    const expected = idsOf(ranges);
    let next = expected.next();
    const digest = new HashBytes();
    const seen: SealEvents = { found: 0, inRange: 0 };
    const xids = xidBounds(seal);
    const ev = new CopiedEvent();
    await this.eachEvent(tx, seal, ranges, (row) => {
      if (problems.full) return;
      ev.load(row);
      const id = BigInt(ev.id);
      for (; !next.done && next.value < id && !problems.full; next = expected.next()) {
        eventProblem(`event ${next.value}: deleted (sealed by seal ${seal.id})`);
      }
      next = expected.next();
      const inRange = ev.xidIn(xids.from, xids.to);
      if (inRange) seen.inRange++;
      if (!ev.hashMatches()) eventProblem(`event ${id}: altered`);
      else if (!inRange) eventProblem(`event ${id}: altered (moved out of seal ${seal.id})`);
      ev.addStoredHash(digest);
      seen.found++;
    });
    for (; !next.done && !problems.full; next = expected.next()) {
      eventProblem(`event ${next.value}: deleted (sealed by seal ${seal.id})`);
    }
    if (eventProblems === 0 && !digest.digest().equals(seal.digest)) {
      problems.add(
        `seal ${seal.id}: its events do not match its digest (an event was altered and re-hashed)`,
      );
    }
    return seen;
  }

  /** The seal's events by id, as COPY rows. */
  private async eachEvent(
    tx: EntityManager,
    seal: SealRow,
    ranges: IdRanges,
    onRow: (row: Buffer) => void,
  ): Promise<void> {
    await this.sellos.copyEventsOfSeal(tx, ranges, onRow);
  }
}

const xidBounds = (seal: SealRow) => ({
  from: Buffer.from(seal.xid_desde, 'latin1'),
  to: Buffer.from(seal.xid_hasta, 'latin1'),
});

/** The problems found, up to MAX_PROBLEMS. */
class Problems {
  constructor(private readonly list: string[]) {}

  get full(): boolean {
    return this.list.length >= MAX_PROBLEMS;
  }

  /** How many more fit. */
  get room(): number {
    return MAX_PROBLEMS - this.list.length;
  }

  add(p: string): void {
    if (!this.full) this.list.push(p);
  }
}
