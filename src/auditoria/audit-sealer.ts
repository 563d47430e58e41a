import { Injectable } from '@nestjs/common';
import { AuditSealsRepository, type WrittenSeal } from './audit-seals.repository.js';

/** At most this many events per seal: the seal's statement holds their hashes in memory. */
const SEAL_MAX_EVENTS = 50_000;
/** Seals written by one run at most (a backlog of a million events: 20 seals, then the next run). */
const MAX_SEALS_PER_RUN = 20;

export type SealRun =
  { outcome: 'sealed'; seals: WrittenSeal[] } | { outcome: 'skipped'; reason: 'locked' };

/**
 * Writes the seals the finished events wait for. One sealer at a time across instances: a run
 * that finds the advisory lock taken skips (the seals' primary key forbids a fork anyway).
 */
@Injectable()
export class AuditSealer {
  private running?: Promise<SealRun>;

  constructor(private readonly sellos: AuditSealsRepository) {}

  /** Seals now, or joins this instance's run in progress. */
  sealNow(maxEvents = SEAL_MAX_EVENTS): Promise<SealRun> {
    this.running ??= this.run(maxEvents).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async run(maxEvents: number): Promise<SealRun> {
    const seals: WrittenSeal[] = [];
    for (let i = 0; i < MAX_SEALS_PER_RUN; i++) {
      const step = await this.sellos.transaction(async (tx) => {
        if (!(await this.sellos.tryLock(tx))) return 'locked' as const;
        return this.sellos.sealNext(tx, maxEvents);
      });
      if (step === 'locked') {
        return seals.length
          ? { outcome: 'sealed', seals }
          : { outcome: 'skipped', reason: 'locked' };
      }
      if (!step) break;
      seals.push(step);
      if (!step.partial) break;
    }
    return { outcome: 'sealed', seals };
  }
}
