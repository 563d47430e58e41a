import { DomainError } from '../common/errors/domain-error.js';
import { AuditSealsRepository } from './audit-seals.repository.js';

/** The regulation's floor (Disp. DNSISA 1/2025, Annex III.3); the delete trigger holds it too. */
export const MIN_RETENTION_YEARS = 5;

export interface PurgeResult {
  antes_de: string;
  /** The purge record's id; null when no seal was old enough. */
  purga: string | null;
  sellos: number;
  eventos: number;
  /** The log's months dropped whole (their partitions), oldest first. */
  particiones: string[];
}

/** The latest `--antes-de` a purge accepts at `now`: the UTC date `years` before (its midnight). */
export function latestPurgeDate(now: Date, years: number): string {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
}

const isDate = (s: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/**
 * `--antes-de` of a purge (the event log's, or `particiones borrar`'s): a real date at least
 * `years` (≥ MIN_RETENTION_YEARS) before `now`, else VALIDATION_FAILED naming the latest one.
 */
export function checkedPurgeDate(
  antesDe: string,
  years: number,
  now = new Date(),
  setting?: string,
): string {
  if (!isDate(antesDe)) {
    throw new DomainError('VALIDATION_FAILED', `--antes-de must be a date YYYY-MM-DD: ${antesDe}`);
  }
  const floor = Math.max(years, MIN_RETENTION_YEARS);
  const latest = latestPurgeDate(now, floor);
  if (antesDe > latest) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `refused: ${antesDe} is within the retention of ${floor} years${setting ? ` (${setting})` : ''}; the latest date a purge accepts today is ${latest}`,
    );
  }
  return antesDe;
}

/**
 * Removes, in one transaction, the events of the seals entirely older than a date past the
 * retention; the seals stay (the chain still verifies) and the purge is recorded for verify.
 */
export class AuditPurger {
  constructor(
    private readonly sellos: AuditSealsRepository,
    private readonly retentionYears: number,
  ) {}

  async purge(antesDe: string, now = new Date()): Promise<PurgeResult> {
    checkedPurgeDate(antesDe, this.retentionYears, now, 'AUDIT_RETENTION_YEARS');
    return this.sellos.transaction(async (tx) => {
      await this.sellos.lock(tx); // one purge (or seal) at a time
      const found = await this.sellos.purgeable(tx, antesDe);
      if (found.n === 0)
        return { antes_de: antesDe, purga: null, sellos: 0, eventos: 0, particiones: [] };
      const { purga, deleted, particiones } = await this.sellos.purge(
        tx,
        antesDe,
        found.sellos,
        found.eventos,
      );
      if (deleted !== Number(found.eventos)) {
        // Rolled back: the seals and their events disagree, which verify explains.
        throw new DomainError(
          'INTERNAL',
          `refused: the seals' events number ${deleted}, their seals say ${found.eventos}; run auditoria verificar`,
        );
      }
      return { antes_de: antesDe, purga, sellos: found.n, eventos: deleted, particiones };
    });
  }
}
