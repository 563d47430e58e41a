/**
 * Issue 45, item 3: may pg-boss's public API carry the registration's job? `npm run
 * bench:pgboss-db -- [--ops=N] [--rounds=N] [--concurrency=N] [--database-url=URL]`.
 *
 * A row and its job written two ways, interleaved round by round on a throwaway database:
 * - `statement`: one statement, the row's INSERT in a CTE and the job's insert beside it
 *   (src/queue/job.sql.ts), as a registration writes them: one round trip;
 * - `send({db})`: BEGIN, the row's INSERT, `boss.send(queue, data, { db })` on the same
 *   connection, COMMIT: pg-boss's public way to join a transaction, four round trips.
 * Prints each round's operations per second and the CPU per operation of this process and of
 * every postgres process (the server is local), and the medians.
 */
import PgBoss from 'pg-boss';
import pg from 'pg';
import { SqlParams } from '../src/common/sql/sql-params.js';
import { insertJobSql } from '../src/queue/job.sql.js';
import { CLK_TCK, postgresTicks } from './lib/cpu.js';
import { createBenchDatabase } from './lib/db.js';
import { median, out } from './lib/log.js';

const flag = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const OPS = Number(flag('ops', '4000'));
const ROUNDS = Number(flag('rounds', '5'));
const CONCURRENCY = Number(flag('concurrency', '8'));
const BASE =
  flag('database-url', '') ||
  process.env.DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/postgres';
const QUEUE = 'bench-punteros';

type Write = (client: pg.PoolClient, payload: string) => Promise<void>;

const oneStatement: Write = async (client, payload) => {
  const p = new SqlParams();
  const row = p.add(payload);
  const job = insertJobSql('pgboss', p, { queue: QUEUE, data: 'r.payload', from: 'r' });
  await client.query({
    name: 'row-and-job',
    text: `WITH r AS (INSERT INTO filas (payload) VALUES (${row}) RETURNING id, payload) ${job}`,
    values: p.values,
  });
};

const sendInTransaction =
  (boss: PgBoss): Write =>
  async (client, payload) => {
    await client.query('BEGIN');
    try {
      await client.query({
        name: 'row',
        text: 'INSERT INTO filas (payload) VALUES ($1) RETURNING id',
        values: [payload],
      });
      const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
      await boss.send(QUEUE, JSON.parse(payload) as object, { db });
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK');
      throw e;
    }
  };

async function round(pool: pg.Pool, write: Write) {
  const cpu0 = process.cpuUsage();
  const pg0 = postgresTicks();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const client = await pool.connect();
      try {
        while (next < OPS) await write(client, JSON.stringify({ n: next++, cuir: '0'.repeat(41) }));
      } finally {
        client.release();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    opsPerS: OPS / seconds,
    clientUs: (cpu.user + cpu.system) / OPS,
    postgresUs: ((postgresTicks() - pg0) / CLK_TCK / OPS) * 1e6,
  };
}

async function main() {
  const database = await createBenchDatabase(BASE, '_pgboss');
  const boss = new PgBoss({ connectionString: database.url, schema: 'pgboss', supervise: false });
  await boss.start();
  await boss.createQueue(QUEUE);
  const pool = new pg.Pool({ connectionString: database.url, max: CONCURRENCY });
  await pool.query('CREATE TABLE filas (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
  const ways: [string, Write][] = [
    ['statement', oneStatement],
    ['send({db})', sendInTransaction(boss)],
  ];
  const results = new Map<string, Awaited<ReturnType<typeof round>>[]>();
  try {
    for (const [, write] of ways) await round(pool, write); // warm-up: plans, caches
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, write] of r % 2 ? [...ways].reverse() : ways) {
        const result = await round(pool, write);
        results.set(name, [...(results.get(name) ?? []), result]);
        out(
          `round ${r + 1} ${name}: ${result.opsPerS.toFixed(0)} ops/s, client ${result.clientUs.toFixed(0)} µs, postgres ${result.postgresUs.toFixed(0)} µs per op`,
        );
      }
    }
    for (const [name, rs] of results) {
      out(
        `median ${name}: ${median(rs.map((x) => x.opsPerS)).toFixed(0)} ops/s, client ${median(rs.map((x) => x.clientUs)).toFixed(0)} µs, postgres ${median(rs.map((x) => x.postgresUs)).toFixed(0)} µs per op`,
      );
    }
  } finally {
    await pool.end();
    await boss.stop({ graceful: false, wait: true });
    await database.drop();
  }
}

await main();
