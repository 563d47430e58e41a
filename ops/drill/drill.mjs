// Backup and restore drill (ops/README.md, "The drill"): a PostgreSQL primary with WAL archiving
// takes registrations from the built service under load; a base backup is taken while the load
// runs; the primary is then lost (immediate stop, service killed), and a second cluster is
// restored from the base backup and the WAL archive to a point in time in the middle of the
// load. The restored service must have every registration acknowledged before that point, an
// event log that verifies, and must drain its ministry queue sending each pointer once.
// Prints the measured restore time (RTO) and the data lost against the target point (RPO).
//
//   node ops/drill/drill.mjs            (after `npm run build`; PostgreSQL's server binaries:
//                                         PG_BINDIR, else `pg_config --bindir`)
import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const LOAD_CONNECTIONS = 8;
const asRoot = process.getuid?.() === 0;
const TOOLS = ['initdb', 'pg_ctl', 'postgres', 'pg_basebackup'];
const INSTALL =
  'The drill needs a PostgreSQL installation with the server and pg_basebackup, which the ' +
  'embedded npm binaries do not ship (Debian: apt-get install postgresql-15, which brings ' +
  'postgresql-client-15; then PG_BINDIR=/usr/lib/postgresql/15/bin).';
function findBindir() {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    process.stderr.write(`PG_BINDIR is unset and pg_config is not installed. ${INSTALL}\n`);
    process.exit(1);
  }
}
const bindir = findBindir();
const missing = TOOLS.filter((tool) => !existsSync(join(bindir, tool)));
if (missing.length > 0) {
  process.stderr.write(`${bindir} lacks ${missing.join(', ')}. ${INSTALL}\n`);
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'prs-drill-'));
chmodSync(work, 0o777);
const children = new Set();
const log = (line) =>
  process.stdout.write(`[drill ${new Date().toISOString().slice(11, 23)}] ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** PostgreSQL's tools refuse root: run them as `postgres` when we are root. */
function pgTool(tool, args, opts = {}) {
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bindir, tool), ...args]]
    : [join(bindir, tool), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function sql(url, text, values = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function waitFor(what, check, ms = 60_000) {
  for (const end = Date.now() + ms; ; await sleep(200)) {
    try {
      if (await check()) return;
    } catch (err) {
      if (err?.fatal) throw err; // not yet, unless the check says it will never be
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

function startProcess(name, args, env) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  children.add(child);
  child.on('exit', () => children.delete(child));
  return { child, output: () => out, name };
}

const urlOf = (port, db) => `postgres://postgres@127.0.0.1:${port}/${db}`;

function startCluster(dir, port) {
  pgTool('pg_ctl', [
    '-D',
    dir,
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=`,
    '-l',
    `${dir}.log`,
    '-w',
    '-t',
    '120',
    'start',
  ]);
}

async function main() {
  const started = Date.now();
  const primaryDir = join(work, 'primary');
  const archive = join(work, 'archive');
  const base = join(work, 'base');
  const restored = join(work, 'restored');
  for (const d of [archive]) {
    execFileSync('mkdir', ['-p', d]);
    if (asRoot) execFileSync('chown', ['postgres', d]);
  }
  if (asRoot) execFileSync('chown', ['postgres', work]);

  // 1. The primary: WAL archived to a folder (a real deployment ships it off the machine).
  log(`PostgreSQL from ${bindir}; work folder ${work}`);
  pgTool('initdb', [
    '-D',
    primaryDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  appendFileSync(
    join(primaryDir, 'postgresql.conf'),
    `\nwal_level = replica\narchive_mode = on\narchive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'\narchive_timeout = 60\nmax_wal_senders = 4\n`,
  );
  const primaryPort = await freePort();
  startCluster(primaryDir, primaryPort);
  await sql(urlOf(primaryPort, 'postgres'), 'CREATE DATABASE registry');
  const primaryUrl = urlOf(primaryPort, 'registry');

  // 2. The sandbox outlives both services (it is the ministry that received the pointers).
  const sandboxPort = await freePort();
  const sandbox = startProcess('sandbox', ['dist/sandbox/main.js'], {
    SANDBOX_PORT: String(sandboxPort),
  });
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  await waitFor('the sandbox', async () => (await fetch(`${sandboxUrl}/__sandbox/calls`)).ok);

  const serviceEnv = (url, port, delivery) => ({
    NODE_ENV: 'development',
    DATABASE_URL: url,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DEMO_CLIENT: 'false',
    CATALOG_SYNC_ON_START: 'false',
    REFEPS_BASE_URL: sandboxUrl,
    RENAPER_BASE_URL: sandboxUrl,
    CATALOGO_BASE_URL: sandboxUrl,
    MINISTERIO_BASE_URL: sandboxUrl,
    PACIENTE_JWKS_URL: `${sandboxUrl}/__sandbox/mi-argentina/jwks.json`,
    PACIENTE_JWT_ISSUER: `${sandboxUrl}/__sandbox/mi-argentina`,
    MINISTRY_DELIVERY_ENABLED: String(delivery),
    MINISTRY_RETRY_DELAY_SECONDS: '1',
    QUEUE_POLL_INTERVAL_SECONDS: '1',
    AUDIT_SEAL_SECONDS: '1',
  });
  const startService = async (url, delivery) => {
    const port = await freePort();
    const p = startProcess('service', ['dist/src/main.js'], serviceEnv(url, port, delivery));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      'the service',
      async () => {
        if (p.child.exitCode !== null)
          throw Object.assign(new Error('the service exited'), { fatal: true });
        return (await fetch(`${base}/health/ready`)).ok;
      },
      120_000,
    ).catch((err) => {
      throw new Error(`${err.message}\n${p.output()}`);
    });
    return { ...p, url: base };
  };

  // 3. The service under registration load. The ministry is "down" for it (delivery paused), so
  // the restored service is the one that reports: each pointer must reach the ministry once.
  const service = await startService(primaryUrl, false);
  const client = JSON.parse(
    execFileSync(
      process.execPath,
      [
        'dist/src/cli/main.js',
        'clients',
        'create',
        '--name',
        'drill',
        '--scopes',
        'all',
        '--rate-limit',
        '1000000',
        '--json',
      ],
      {
        env: { ...process.env, DATABASE_URL: primaryUrl, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    ),
  );
  const headers = {
    'X-API-Key': client.key,
    'X-API-Secret': client.secret,
    'Content-Type': 'application/json',
  };
  const acks = []; // { cuir, at }
  let loading = true;
  let seq = 0;
  const worker = async (w) => {
    while (loading) {
      const groupId = `${Date.now()}${w}${++seq}`.padStart(25, '0').slice(-25);
      const gen = await fetch(`${service.url}/v1/cuir/generar`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          groupId,
          itemId: '01',
          state: '02',
          prescriptionType: '01',
          medicationType: '02',
        }),
      });
      if (gen.status !== 201)
        throw new Error(`generar answered ${gen.status}: ${await gen.text()}`);
      const { cuir } = (await gen.json()).data;
      const res = await fetch(`${service.url}/v1/recetas/registrar`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          documento_paciente: '30111222',
          matricula_profesional: '123456',
          locacion: 'Simulacro de restauración',
          cuir,
          fecha_creacion: new Date(Date.now() - 60_000).toISOString(),
          items: [{ nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 1, codigo: '1336421' }],
        }),
      });
      if (res.status !== 201)
        throw new Error(`registrar answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      acks.push({ cuir, at: Date.now() });
    }
  };
  const load = Promise.all(Array.from({ length: LOAD_CONNECTIONS }, (_, w) => worker(w)));
  await sleep(3000);

  // 4. A base backup while registrations keep arriving.
  log(`base backup under load (${acks.length} registrations so far)`);
  const b0 = Date.now();
  pgTool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    base,
    '-X',
    'none',
    '--checkpoint=fast',
  ]);
  log(`base backup taken in ${((Date.now() - b0) / 1000).toFixed(1)} s`);
  await sleep(3000);

  // 5. The target point, in the middle of the load; then more load, then the disaster.
  const targetClient = Date.now();
  const [{ target }] = await sql(
    primaryUrl,
    `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS target`,
  );
  log(`restore target ${target} (${acks.length} registrations acknowledged)`);
  await sleep(3000);
  loading = false;
  await load;
  const [{ wal }] = await sql(primaryUrl, 'SELECT pg_walfile_name(pg_switch_wal()) AS wal');
  await waitFor('the last WAL segment in the archive', async () => {
    const [{ last }] = await sql(
      primaryUrl,
      'SELECT last_archived_wal AS last FROM pg_stat_archiver',
    );
    return last !== null && last >= wal;
  });
  log(`disaster: service killed, primary stopped immediately (${acks.length} acknowledged in all)`);
  service.child.kill('SIGKILL');
  pgTool('pg_ctl', ['-D', primaryDir, '-m', 'immediate', 'stop']);

  // 6. Point-in-time restore into a second cluster, then the service on it.
  const r0 = Date.now();
  cpSync(base, restored, { recursive: true });
  if (asRoot) execFileSync('chown', ['-R', 'postgres', restored]);
  chmodSync(restored, 0o700);
  appendFileSync(
    join(restored, 'postgresql.conf'),
    `\narchive_mode = off\nrestore_command = 'cp ${archive}/%f %p'\nrecovery_target_time = '${target}'\nrecovery_target_action = 'promote'\n`,
  );
  writeFileSync(join(restored, 'recovery.signal'), '');
  if (asRoot) execFileSync('chown', ['postgres', join(restored, 'recovery.signal')]);
  const restoredPort = await freePort();
  startCluster(restored, restoredPort);
  const restoredUrl = urlOf(restoredPort, 'registry');
  await waitFor(
    'the restored cluster to be promoted',
    async () => {
      const [{ r }] = await sql(restoredUrl, 'SELECT pg_is_in_recovery() AS r');
      return r === false;
    },
    300_000,
  );
  const after = await startService(restoredUrl, true);
  const rto = (Date.now() - r0) / 1000;
  log(`restored and serving in ${rto.toFixed(1)} s`);

  // 7. The checks.
  const failures = [];
  const before = acks.filter((a) => a.at <= targetClient);
  const later = acks.filter((a) => a.at > targetClient);
  const present = new Set(
    (
      await sql(restoredUrl, 'SELECT cuir FROM recetas WHERE cuir = ANY($1)', [
        acks.map((a) => a.cuir),
      ])
    ).map((r) => r.cuir),
  );
  const missing = before.filter((a) => !present.has(a.cuir));
  if (missing.length)
    failures.push(`${missing.length} registrations acknowledged before the target are missing`);
  log(
    `acknowledged before the target: ${before.length}, present: ${before.length - missing.length}`,
  );
  log(
    `acknowledged after the target: ${later.length}, present: ${later.filter((a) => present.has(a.cuir)).length} (the rest is what a restore to that point gives up)`,
  );

  let verify;
  try {
    verify = execFileSync(process.execPath, ['dist/src/cli/main.js', 'auditoria', 'verificar'], {
      env: { ...process.env, DATABASE_URL: restoredUrl, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    }).trim();
    log(`auditoria verificar: ${verify.split('\n').join(' / ')}`);
  } catch (err) {
    failures.push(`auditoria verificar failed: ${err.stdout ?? ''}${err.stderr ?? ''}`);
  }

  await waitFor(
    'the ministry queue to drain',
    async () => {
      const [{ n }] = await sql(
        restoredUrl,
        `SELECT count(*)::int AS n FROM recetas WHERE estado = 'PENDING'`,
      );
      return n === 0;
    },
    180_000,
  ).catch((err) => failures.push(err.message));
  const punteros =
    (await (await fetch(`${sandboxUrl}/__sandbox/ministerio/punteros`)).json()).punteros ?? [];
  const byCuir = new Map(punteros.map((p) => [p.cuir, p]));
  const twice = punteros.filter((p) => p.recepciones !== 1);
  const notTold = [...present].filter((c) => !byCuir.has(c));
  if (twice.length) failures.push(`${twice.length} pointers were received more than once`);
  if (notTold.length)
    failures.push(`${notTold.length} restored registrations never reached the ministry`);
  log(
    `ministry: ${punteros.length} pointers, ${twice.length} received more than once, ${notTold.length} restored registrations not told`,
  );

  log(
    `RESULT restore time ${rto.toFixed(1)} s (objective 2 h); data lost against the target: ${missing.length} registrations (objective: none acknowledged before the target point); whole drill ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  after.child.kill('SIGTERM');
  sandbox.child.kill('SIGTERM');
  await sleep(500);
  pgTool('pg_ctl', ['-D', restored, '-m', 'fast', 'stop']);
  if (failures.length) throw new Error(`drill failed:\n- ${failures.join('\n- ')}`);
  log('drill passed');
}

main()
  .catch((err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) c.kill('SIGKILL');
    for (const dir of ['primary', 'restored']) {
      try {
        pgTool('pg_ctl', ['-D', join(work, dir), '-m', 'immediate', 'stop']);
      } catch {
        /* not running */
      }
    }
    rmSync(work, { recursive: true, force: true });
  });
