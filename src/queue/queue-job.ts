import { SetMetadata, Type } from '@nestjs/common';
import type PgBoss from 'pg-boss';

/** Retries and expiry of a job that fails unexpectedly (pg-boss queue options). */
export interface JobPolicy {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  /** A job whose worker died is worked again after this long. */
  expireInSeconds: number;
}

/**
 * A kind of job: an `@Injectable() @QueueJob()` class naming its queue, policy, pollers per
 * instance and handler; enqueued with `JobQueue.enqueue(TheJobClass, data)`. Handlers are
 * at-least-once: make them idempotent.
 */
export interface QueueJobHandler<T> {
  readonly name: string;
  readonly policy: JobPolicy;
  /** Pollers on this instance; 0 leaves the queue to others (jobs stay queued). */
  readonly concurrency: number;
  handle(job: PgBoss.JobWithMetadata<T>): Promise<void>;
}

export type QueueJobClass<T> = Type<QueueJobHandler<T>>;

export const QUEUE_JOB = 'queue:job';

export const QueueJob = (): ClassDecorator => SetMetadata(QUEUE_JOB, true);
