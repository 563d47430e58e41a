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
  /** With `desde`: the seal taken as the first link (not examined), and its stored hash. */
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

/**
 * Recomputes the chain and every sealed event, in one read-only snapshot. Per seal: it follows
 * the previous one (number, boundary, hash) and its hash holds; each event it covers is there,
 * hashes to its stored hash and was written in the seal's transaction range; their hashes give
 * the seal's digest; no other event was written in that range. From a seal on (`desde`), that
 * seal is the first link, as the genesis is for a full check. Events are read as COPY rows and
 * hashed from their bytes (audit-copy.ts).
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
    const expectedId = prev ? BigInt(prev.id) + 1n : 1n;
    if (BigInt(seal.id) !== expectedId) problems.add(`seal ${expectedId}: missing (chain broken)`);
    else if (seal.xid_desde !== (prev?.xid_hasta ?? '0'))
      problems.add(
        `seal ${seal.id}: chain broken (its range does not start where the previous ends)`,
      );
    else if (!seal.hash_anterior.equals(prev?.hash ?? GENESIS))
      problems.add(`seal ${seal.id}: chain broken (previous hash differs)`);
    if (!sealHash(seal.hash_anterior, seal, seal.digest).equals(seal.hash))
      problems.add(`seal ${seal.id}: altered (its hash does not match its fields)`);
  }

  /**
   * Walks the seal's events once, only hashing; when an id the seal covers is missing, walks them
   * again (`byId`) to name each deleted one in its place among the other problems. Returns the
   * events found (all read, unless the problems filled up) and those written in its range.
   */
  private async checkEvents(
    tx: EntityManager,
    seal: SealRow,
    problems: Problems,
    ranges?: IdRanges,
  ): Promise<{ found: number; inRange: number }> {
    const byId = ranges !== undefined;
    if (!ranges) {
      try {
        ranges = parseIdRanges(seal.ids);
      } catch {
        problems.add(`seal ${seal.id}: altered (unreadable id set)`);
        return { found: 0, inRange: 0 };
      }
      if (rangesSize(ranges) !== BigInt(seal.eventos))
        problems.add(`seal ${seal.id}: altered (its id set does not hold its event count)`);
    }
    const own: string[] = [];
    const digest = new HashBytes();
    const seen = { found: 0, inRange: 0 };
    const from = Buffer.from(seal.xid_desde, 'latin1');
    const to = Buffer.from(seal.xid_hasta, 'latin1');
    const ev = new CopiedEvent();
    const expected = idsOf(ranges);
    let next = expected.next();
    const deletedUpTo = (id?: bigint) => {
      for (; !next.done && (id === undefined || next.value < id); next = expected.next()) {
        if (own.length >= problems.room) return;
        own.push(`event ${next.value}: deleted (sealed by seal ${seal.id})`);
      }
    };
    await this.sellos.copyEventsOfSeal(tx, ranges, (row) => {
      if (!byId) seen.found++;
      if (own.length >= problems.room) return; // this seal alone fills the list
      ev.load(row);
      if (byId) {
        const id = BigInt(ev.id);
        deletedUpTo(id);
        next = expected.next();
        seen.found++;
      }
      const inRange = ev.xidIn(from, to);
      if (inRange) seen.inRange++;
      if (!ev.hashMatches()) own.push(`event ${ev.id}: altered`);
      else if (!inRange) own.push(`event ${ev.id}: altered (moved out of seal ${seal.id})`);
      ev.addStoredHash(digest);
    });
    // Every row is an id of the set (the query's filter), each once: all there, or some deleted.
    if (byId) deletedUpTo();
    else if (BigInt(seen.found) !== rangesSize(ranges))
      return this.checkEvents(tx, seal, problems, ranges);
    for (const p of own) problems.add(p);
    // Only when every event looked right: then a different digest means one was re-hashed.
    if (own.length === 0 && !digest.digest().equals(seal.digest)) {
      problems.add(
        `seal ${seal.id}: its events do not match its digest (an event was altered and re-hashed)`,
      );
    }
    return seen;
  }
}

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
