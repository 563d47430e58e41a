import type { DataSource } from 'typeorm';
import { poolExecutor } from './sql-executor.js';

/** A DataSource whose queries answer when the test says so. */
function fakeDataSource() {
  const pending: Array<() => void> = [];
  const db = {
    createQueryRunner: () => ({
      query: () => new Promise((resolve) => pending.push(() => resolve({ records: [{ ok: 1 }] }))),
      release: () => Promise.resolve(),
    }),
  } as unknown as DataSource;
  return { db, answerAll: () => pending.splice(0).forEach((answer) => answer()) };
}

describe('poolExecutor', () => {
  it('drain waits for a statement nobody awaits (pg-boss recording a job outcome)', async () => {
    const { db, answerAll } = fakeDataSource();
    const executor = poolExecutor(db);
    void executor.executeSql('SELECT 1'); // started, not awaited, as pg-boss's complete()
    let drained = false;
    const drain = executor.drain().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    answerAll();
    await drain;
    expect(drained).toBe(true);
  });

  it('drain resolves at once when nothing is under way, and after a failed statement', async () => {
    const db = {
      createQueryRunner: () => ({
        query: () => Promise.reject(new Error('Connection terminated')),
        release: () => Promise.resolve(),
      }),
    } as unknown as DataSource;
    const executor = poolExecutor(db);
    await executor.drain();
    await expect(executor.executeSql('SELECT 1')).rejects.toThrow('Connection terminated');
    await executor.drain();
  });
});
