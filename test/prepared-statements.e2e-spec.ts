import pg from 'pg';
import { isUniqueViolation } from '../src/common/database-errors.js';
import { PREPARED_TEXTS_MAX, Transactions } from '../src/database/transactions.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * The hot paths' statements run as named prepared statements (Transactions.prepared): parsed
 * and planned once per connection. Shown on PostgreSQL's own list of the connection's prepared
 * statements, inside a transaction (its connection) and on the pool, with the driver's errors.
 */
describe('Transactions.prepared', () => {
  let t: TestApp;
  let tx: Transactions;

  beforeAll(async () => {
    // A table of the test's own, made by the migration role and granted to the service's.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE TABLE IF NOT EXISTS prepared_spec (n int PRIMARY KEY)`);
    await admin.query(`GRANT ALL ON prepared_spec TO ${process.env.TEST_RUNTIME_ROLE}`);
    await admin.end();
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    tx = t.app.get(Transactions);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const preparedHere = async (): Promise<Array<{ name: string; statement: string }>> =>
    tx.manager.query(`SELECT name, statement FROM pg_prepared_statements ORDER BY name`);

  it('prepares a text once on the transaction connection, and reuses it with new values', async () => {
    const sql = `SELECT $1::int * 2 AS doubled /* prepared-spec 1 */`;
    await tx.run(async () => {
      expect(await tx.prepared<{ doubled: number }>(sql, [2])).toEqual([{ doubled: 4 }]);
      expect(await tx.prepared<{ doubled: number }>(sql, [21])).toEqual([{ doubled: 42 }]);
      const mine = (await preparedHere()).filter((s) => s.statement === sql);
      expect(mine).toHaveLength(1);
      expect(mine[0].name).toMatch(/^hot_\d+$/);
    });
  });

  it('tells apart texts of the same length, each under its own name', async () => {
    const times = `SELECT $1::int * 3 AS n /* prepared-spec same length */`;
    const plus = `SELECT $1::int + 3 AS n /* prepared-spec same length */`;
    expect(times).toHaveLength(plus.length);
    await tx.run(async () => {
      // Built anew each time, as a hot path composes its text: equal by value, not identity.
      for (const n of [5, 6]) {
        expect(await tx.prepared(`${times.slice(0, 10)}${times.slice(10)}`, [n])).toEqual([
          { n: n * 3 },
        ]);
        expect(await tx.prepared(`${plus.slice(0, 10)}${plus.slice(10)}`, [n])).toEqual([
          { n: n + 3 },
        ]);
      }
      const mine = (await preparedHere()).filter(
        (s) => s.statement === times || s.statement === plus,
      );
      expect(mine).toHaveLength(2);
      expect(mine[0].name).not.toBe(mine[1].name);
    });
  });

  it('joins the running transaction: a rolled-back write is gone', async () => {
    const insert = `INSERT INTO prepared_spec (n) VALUES ($1) RETURNING n`;
    await expect(
      tx.run(async () => {
        await tx.prepared(insert, [7]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await tx.manager.query(`SELECT n FROM prepared_spec WHERE n = 7`)).toEqual([]);
    expect(await tx.prepared(insert, [8])).toEqual([{ n: 8 }]);
  });

  it("throws the driver's error, which the service's checks read (unique violation, constraint)", async () => {
    const insert = `INSERT INTO prepared_spec (n) VALUES ($1) /* prepared-spec dup */`;
    await tx.prepared(insert, [100]);
    const err: unknown = await tx.prepared(insert, [100]).catch((e: unknown) => e);
    expect(isUniqueViolation(err, 'prepared_spec_pkey')).toBe(true);
  });

  it(`names at most ${PREPARED_TEXTS_MAX} texts; the rest still run, unnamed`, async () => {
    for (let i = 0; i < PREPARED_TEXTS_MAX + 5; i++) {
      const rows = await tx.prepared<{ i: number }>(`SELECT $1::int AS i /* cap ${i} */`, [i]);
      expect(rows).toEqual([{ i }]);
    }
    await tx.run(async () => {
      const over = `SELECT $1::int AS i /* cap ${PREPARED_TEXTS_MAX + 4} */`;
      await tx.prepared(over, [1]);
      expect((await preparedHere()).some((s) => s.statement === over)).toBe(false);
    });
  });
});

describe('Transactions.prepared when the database loses a named statement (a pooler between)', () => {
  let t: TestApp;
  let tx: Transactions;

  beforeAll(async () => {
    // One connection, so the statement is prepared on the connection the test then clears.
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false', DATABASE_POOL_SIZE: '1' });
    tx = t.app.get(Transactions);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers anyway (the refused statement is sent again unnamed), and names nothing from then on', async () => {
    const sql = `SELECT $1::int + 1 AS next /* prepared-spec lost */`;
    expect(await tx.prepared(sql, [1])).toEqual([{ next: 2 }]);
    const [{ name }] = await tx.manager.query<Array<{ name: string }>>(
      `SELECT name FROM pg_prepared_statements WHERE statement = $1`,
      [sql],
    );
    // What a transaction-mode pooler does: the next call lands where the name is unknown.
    await tx.manager.query(`DEALLOCATE ${name}`);
    expect(await tx.prepared(sql, [41])).toEqual([{ next: 42 }]);
    const later = `SELECT $1::int AS n /* prepared-spec after */`;
    expect(await tx.prepared(later, [5])).toEqual([{ n: 5 }]);
    const named = await tx.manager.query(
      `SELECT 1 FROM pg_prepared_statements WHERE statement = $1`,
      [later],
    );
    expect(named).toEqual([]);
  });
});
