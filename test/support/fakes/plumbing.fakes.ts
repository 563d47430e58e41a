import type { Transactions } from '../../../src/database/transactions.js';
import type { EnqueueOptions, JobQueue } from '../../../src/queue/job-queue.js';
import type { QueueJobClass } from '../../../src/queue/queue-job.js';

/** Runs the work as is: the fakes it touches keep their writes (no rollback in memory). */
export class FakeTransactions implements Pick<Transactions, 'run'> {
  runs = 0;

  run<T>(work: () => Promise<T>): Promise<T> {
    this.runs++;
    return work();
  }
}

/** Records what would have been enqueued. */
export class FakeJobQueue implements Pick<JobQueue, 'enqueue'> {
  readonly enqueued: Array<{ job: string; data: unknown; opts: EnqueueOptions }> = [];

  enqueue<T>(job: QueueJobClass<T>, data: T, opts: EnqueueOptions = {}): Promise<string | null> {
    this.enqueued.push({ job: job.name, data, opts });
    return Promise.resolve(String(this.enqueued.length));
  }
}
