/**
 * The event log at scale (issue 30, item 3): `npm run bench:auditoria -- [flags]`.
 *
 * 1. insert: the registration's event-log entry as the service writes it (the companion
 *    statement of src/auditoria/auditoria.sql.ts inside a one-row WITH, named prepared
 *    statement), N times in transactions of 100, against the same statement without the event:
 *    the PostgreSQL backend's CPU time per event (from /proc, the server being local) and the
 *    wall time, medians of interleaved rounds.
 * 2. seed: --events events written through the real insert trigger, --batch per transaction
 *    (one writing transaction each, as a seal needs), then sealed by `auditoria sellar`.
 * 3. verify: `auditoria verificar` in full, then `--desde` the seal at --desde-at of the chain,
 *    then `--desde` the last seal (the command's fixed cost: start, connect, migrations check).
 *
 * Flags: --events=N (2,000,000), --batch=N (1,000), --inserts=N (5,000 per round), --rounds=N
 * (3), --desde-at=F (0.75), --only=insert,seed,verify, --database-url=URL (the server, default
 * DATABASE_URL or postgres://postgres@127.0.0.1:5432/test), --db=NAME (an existing database:
 * not created nor dropped), --cli=PATH (the CLI that migrates, seals and verifies: another
 * build's dist/src/cli/main.js for an A/B), --keep-db. The database is `audit_scale_<pid>`,
 * dropped at the end unless --keep-db.
 */
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { eventInStatementSql } from '../src/auditoria/auditoria.sql.js';
import { SqlParams } from '../src/common/sql/sql-params.js';
import { ROOT } from './lib/bench.js';
import { log, median, out } from './lib/log.js';

const run = promisify(execFile);

interface Flags {
  events: number;
  batch: number;
  inserts: number;
  rounds: number;
  desdeAt: number;
  only: Set<string>;
  baseUrl: string;
  db?: string;
  cli: string;
  keepDb: boolean;
}

function parseFlags(argv: string[]): Flags {
  const f = new Map(
    argv.map((a) => {
      const [k, ...v] = a.replace(/^--/, '').split('=');
      return [k, v.length ? v.join('=') : 'true'] as const;
    }),
  );
  const num = (k: string, d: number) => (f.has(k) ? Number(f.get(k)) : d);
  return {
    events: num('events', 2_000_000),
    batch: num('batch', 1000),
    inserts: num('inserts', 5000),
    rounds: num('rounds', 3),
    desdeAt: num('desde-at', 0.75),
    only: new Set((f.get('only') ?? 'insert,seed,verify').split(',')),
    baseUrl:
      f.get('database-url') ??
      process.env.DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/test',
    db: f.get('db'),
    cli: f.get('cli') ?? join(ROOT, 'dist/src/cli/main.js'),
    keepDb: f.has('keep-db'),
  };
}

const CLIENT = '0b5c7a4e-1111-4222-8333-444455556666';

/** The CLI on the database; its stdout. */
async function cli(flags: Flags, url: string, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [flags.cli, 'auditoria', ...args], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** utime + stime of a local process, in µs (clock ticks of 10 ms); null when unreadable. */
function cpuOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/** N one-row statements, with the event or without: backend CPU and wall µs per statement. */
async function insertRound(c: pg.Client, backend: number, n: number, withEvent: boolean) {
  const p = new SqlParams();
  const id = p.add('0');
  const event = eventInStatementSql({
    tipo: 'registro',
    cuir: '10001000100000001000000000000000000000042',
    actor: CLIENT,
    resultado: 'ok',
    requestId: 'c0ffee00-1111-4222-8333-444455556666',
    clientRequestId: null,
  });
  const body = withEvent ? `, e AS (${event(p, 'r')})` : '';
  const text = `WITH r AS (SELECT ${id}::bigint AS id)${body} SELECT 1 AS ok`;
  const name = withEvent ? 'bench_event' : 'bench_no_event';
  const cpu0 = cpuOf(backend);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 100) {
    await c.query('BEGIN');
    for (let j = i; j < Math.min(n, i + 100); j++) {
      await c.query({ name, text, values: [String(j + 1), ...p.values.slice(1)] });
    }
    await c.query('COMMIT');
  }
  const wall = ((performance.now() - t0) * 1000) / n;
  const cpu1 = cpuOf(backend);
  return { wall, cpu: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / n };
}

async function insertBench(flags: Flags, url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;
    await insertRound(c, pid, 500, true); // warm: plans, caches
    await insertRound(c, pid, 500, false);
    const rounds: Array<{
      wall: number;
      cpu: number | null;
      base: number;
      baseCpu: number | null;
    }> = [];
    for (let r = 0; r < flags.rounds; r++) {
      const e = await insertRound(c, pid, flags.inserts, true);
      const b = await insertRound(c, pid, flags.inserts, false);
      rounds.push({ wall: e.wall, cpu: e.cpu, base: b.wall, baseCpu: b.cpu });
      log(
        `insert round ${r + 1}: with event ${e.wall.toFixed(0)} µs wall, ${e.cpu?.toFixed(0)} µs PG CPU; ` +
          `without ${b.wall.toFixed(0)} / ${b.cpu?.toFixed(0)}`,
      );
    }
    const cpu = rounds.every((r) => r.cpu !== null)
      ? median(rounds.map((r) => r.cpu! - r.baseCpu!))
      : null;
    const wall = median(rounds.map((r) => r.wall - r.base));
    out(
      `insert: the event-log entry costs ${cpu === null ? 'n/a' : cpu.toFixed(0)} µs of PostgreSQL CPU ` +
        `and ${wall.toFixed(0)} µs of wall time per registration statement ` +
        `(median of ${flags.rounds} rounds of ${flags.inserts}, with minus without the event)`,
    );
  } finally {
    await c.end();
  }
}

async function seed(flags: Flags, url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const t0 = performance.now();
  try {
    // One statement per batch (autocommit): each batch is one writing transaction.
    for (let done = 0; done < flags.events; done += flags.batch) {
      const n = Math.min(flags.batch, flags.events - done);
      await c.query(
        `INSERT INTO auditoria_eventos (tipo, cuir, id_transaccion, actor, resultado, request_id, client_request_id)
         SELECT (ARRAY['registro','verificacion','dispensa','reserva','acceso_paciente','documento'])[1 + g % 6],
                lpad(($1::bigint + g)::text, 41, '2'), ($1::bigint + g) / 3 + 1,
                CASE WHEN g % 10 = 0 THEN 'paciente'
                     ELSE '0b5c7a4e-1111-4222-8333-4444' || lpad((g % 50)::text, 8, '0') END,
                CASE WHEN g % 7 = 0 THEN 'NOT_FOUND' ELSE 'ok' END,
                gen_random_uuid()::text,
                CASE WHEN g % 2 = 0 THEN 'cli-' || ($1::bigint + g) END
           FROM generate_series(1, $2::int) g`,
        [done, n],
      );
      if ((done / flags.batch) % 200 === 0) log(`seeded ${done + n} events`);
    }
  } finally {
    await c.end();
  }
  const s = (performance.now() - t0) / 1000;
  out(
    `seed: ${flags.events} events in ${s.toFixed(1)} s (${Math.round(flags.events / s)}/s, ${flags.batch} per transaction, through the insert trigger)`,
  );
  const t1 = performance.now();
  for (let i = 0; ; i++) {
    const said = await cli(flags, url, ['sellar']);
    if (said.startsWith('nothing to seal') || i > flags.events / 500_000 + 10) break;
  }
  out(
    `seal: ${((performance.now() - t1) / 1000).toFixed(1)} s (auditoria sellar until nothing is left)`,
  );
}

interface Report {
  ok: boolean;
  eventos: number;
  sellos: number;
  ultimo_sello: { id: string } | null;
  problemas: string[];
}

/** The PostgreSQL backends of database `name` on this machine (their process title names it). */
function backendsOf(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (cmd.startsWith('postgres: ') && cmd.includes(` ${name} `)) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

interface Timed {
  report: Report;
  s: number;
  /** CPU seconds of the CLI process and of its PostgreSQL backend (sampled every 50 ms). */
  cliCpu: number;
  pgCpu: number;
}

/** Runs the CLI's verify, sampling its CPU and its backend's from /proc while it runs. */
function timedVerify(flags: Flags, url: string, db: string, args: string[]): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [flags.cli, 'auditoria', 'verificar', '--json', ...args],
      {
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const cpu = new Map<number, number>();
    const before = new Map(backendsOf(db).map((pid) => [pid, cpuOf(pid) ?? 0]));
    const sample = () => {
      for (const pid of [child.pid!, ...backendsOf(db)]) {
        const c = cpuOf(pid);
        if (c !== null) cpu.set(pid, c - (before.get(pid) ?? 0));
      }
    };
    const timer = setInterval(sample, 50);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      const s = (performance.now() - t0) / 1000;
      if (code !== 0 && code !== 1) return reject(new Error(`verify exited ${code}`));
      const cliCpu = (cpu.get(child.pid!) ?? 0) / 1e6;
      cpu.delete(child.pid!);
      const pgCpu = [...cpu.values()].reduce((a, b) => a + b, 0) / 1e6;
      try {
        resolve({ report: JSON.parse(stdout) as Report, s, cliCpu, pgCpu });
      } catch {
        reject(new Error(`verify ${args.join(' ')} printed no report`));
      }
    });
  });
}

async function verify(flags: Flags, url: string, db: string): Promise<void> {
  const timed = async (args: string[]) => {
    const t = await timedVerify(flags, url, db, args);
    if (!t.report.ok) throw new Error(`verify failed: ${t.report.problemas.join('; ')}`);
    return t;
  };
  // The command's fixed cost (start, connect, migrations check): --desde the last seal, no event.
  // A build before --desde (an A/B with --cli) has none to subtract.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const head = await c.query<{ last: string | null }>(
    'SELECT max(id)::text AS last FROM auditoria_sellos',
  );
  await c.end();
  const last = Number(head.rows[0].last ?? 0);
  const fixed = last ? await timed(['--desde', String(last)]).catch(() => null) : null;
  const line = (what: string, r: Timed) => {
    const n = r.report.eventos;
    const net = fixed ? r.s - fixed.s : r.s;
    const cli = fixed ? r.cliCpu - fixed.cliCpu : r.cliCpu;
    const us = (cpuS: number) => ((cpuS * 1e6) / n).toFixed(2);
    out(
      `${what}: ${n} events in ${r.report.sellos} seals, ${r.s.toFixed(1)} s ` +
        `(${Math.round(n / r.s)} events/s; ${Math.round(n / net)}/s without the command's fixed ` +
        `${fixed ? fixed.s.toFixed(1) : '?'} s). CPU per event: verify ${us(cli)} µs, ` +
        `its PostgreSQL backend ${us(r.pgCpu)} µs: on two otherwise idle cores ` +
        `~${Math.round(n / Math.max(cli, r.pgCpu))} events/s`,
    );
  };
  line('verify, full', await timed([]));
  const from = Math.max(1, Math.floor(last * flags.desdeAt));
  if (last > 1 && fixed) line(`verify --desde ${from}`, await timed(['--desde', String(from)]));
  if (fixed) {
    out(
      `verify --desde ${last} (the last seal, no event: the command's fixed cost): ${fixed.s.toFixed(1)} s, ${fixed.cliCpu.toFixed(1)} s of CPU`,
    );
  }
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const admin = new pg.Client({ connectionString: flags.baseUrl });
  await admin.connect();
  const name = flags.db ?? `audit_scale_${process.pid}`;
  const u = new URL(flags.baseUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  if (!flags.db) await admin.query(`CREATE DATABASE ${name}`);
  log(`database ${name}; cli ${flags.cli}`);
  const load = () => (readFileSync('/proc/loadavg', 'latin1').split(' ')[0] ?? '?').trim();
  try {
    await cli(flags, url, ['sellar']); // migrates
    out(`load average at start: ${load()}`);
    if (flags.only.has('insert')) await insertBench(flags, url);
    if (flags.only.has('seed')) await seed(flags, url);
    if (flags.only.has('verify')) await verify(flags, url, name);
    out(`load average at end: ${load()}`);
  } finally {
    if (!flags.db && !flags.keepDb)
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    else log(`database kept: ${url}`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
