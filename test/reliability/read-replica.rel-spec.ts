import request from 'supertest';
import { EnlacesPublicos } from '../../src/publico/enlaces-publicos.service.js';
import type { TestClient } from '../support/clients.js';
import { PHARMACY_SCOPES } from '../support/dispensas.js';
import { register, registrationBody } from '../support/recetas.js';
import type { TestApp } from '../support/test-app.js';
import { LogGuard } from './support/log-guard.js';
import {
  type Cluster,
  clusterHome,
  sql,
  startPrimary,
  startReplica,
} from './support/pg-clusters.js';
import { sleep } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

/** How the replica's connections name themselves: their presence there is the proof of use. */
const READS = 'registry-replica-reads';

/**
 * SPEC 10 "past one machine": the service against a primary and a streaming replica of it
 * (pg_basebackup -R into a second cluster). Reads that tolerate lag — verification by CUIR, the
 * public page, later pages of a listing, the catalogue search — go to the replica; writes and
 * reads after a write to the primary; and lag never shows a client its own write as missing.
 */
describe('a streaming read replica (DATABASE_READ_URL)', () => {
  const guard = new LogGuard();
  const home = clusterHome();
  let primary: Cluster;
  let replica: Cluster;
  let t: TestApp;
  let owner: TestClient;
  let farmacia: TestClient;

  beforeAll(async () => {
    primary = await startPrimary(home.dir);
    await sql(primary.url(), 'CREATE DATABASE registry');
    replica = await startReplica(home.dir, primary, 'replica');
    for (let i = 0; i < 100; i++) {
      const rows = await sql(
        replica.url('registry'),
        'SELECT pg_is_in_recovery() AS standby',
      ).catch(() => []);
      if (rows.length > 0) break;
      await sleep(100);
    }
    t = await startWatchedApp(guard, 'replica-app', {
      // The clusters of its own have no runtime role of the run: one role there.
      DATABASE_URL: primary.url('registry'),
      DATABASE_MIGRATION_URL: '',
      DATABASE_READ_URL: `${replica.url('registry')}?application_name=${READS}`,
    });
    owner = await watchedClient(t, guard);
    farmacia = await watchedClient(t, guard, { scopes: [...PHARMACY_SCOPES] });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    replica?.stop('immediate');
    primary?.stop('immediate');
    home.remove();
  });

  const readsOnReplica = async () =>
    Number(
      (
        await sql<{ n: string }>(
          replica.url(),
          'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1',
          [READS],
        )
      )[0].n,
    );
  const onReplica = async (cuir: string) =>
    Number(
      (
        await sql<{ n: string }>(
          replica.url('registry'),
          'SELECT count(*) AS n FROM recetas WHERE cuir = $1',
          [cuir],
        )
      )[0].n,
    );
  const verificar = (cuir: string) =>
    request(t.url).get(`/v1/recetas/verificar/${cuir}`).set(farmacia.headers);
  const publico = (cuir: string) => {
    const link = new URL(t.app.get(EnlacesPublicos).url(cuir));
    return request(t.url)
      .get(link.pathname + link.search)
      .set('Accept', 'application/json');
  };
  const range = () => ({
    fecha_desde: new Date(Date.now() - 3_600_000).toISOString(),
    fecha_hasta: new Date(Date.now() + 3_600_000).toISOString(),
  });

  it('sends the lag-tolerant reads to the replica, and every write to the primary', async () => {
    const body = registrationBody();
    const cuir = body.cuir as string;
    await register(t, owner, body).expect(201);
    // Streaming replication: the replica has it within moments.
    for (let i = 0; i < 100 && (await onReplica(cuir)) === 0; i++) await sleep(50);
    expect(await onReplica(cuir)).toBe(1);

    expect((await verificar(cuir).expect(200)).body.data.cuir).toBe(cuir);
    expect(await readsOnReplica()).toBeGreaterThan(0);
    await publico(cuir).expect(200);
    const search = await request(t.url)
      .get('/v1/medicamentos/buscar?q=ibuprofeno')
      .set(owner.headers)
      .expect(200);
    expect(search.body.data.total).toBeGreaterThan(0);
  });

  it('never shows a client its own write as missing while the replica lags', async () => {
    await sql(replica.url(), 'SELECT pg_wal_replay_pause()');
    try {
      const body = registrationBody();
      const cuir = body.cuir as string;
      const id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
      // The replica really is behind: it has not seen the prescription.
      expect(await onReplica(cuir)).toBe(0);

      // A miss on the replica is asked of the primary.
      expect((await verificar(cuir).expect(200)).body.data.cuir).toBe(cuir);
      expect((await publico(cuir).expect(200)).body.data.cuir).toBe(cuir);
      // The owner's detail is a read after its write: the primary's.
      await request(t.url).get(`/v1/recetas/${id}`).set(owner.headers).expect(200);

      // Page 1 is the primary's and sets the watermark; a later page with that watermark finds
      // the replica behind it and reads the primary too: no row page 1 promised is missing.
      const first = (
        await request(t.url)
          .get('/v1/recetas/listar')
          .query({ ...range(), per_page: 200 })
          .set(owner.headers)
          .expect(200)
      ).body.data;
      expect(first.items.map((i: { cuir: string }) => i.cuir)).toContain(cuir);
      const again = (
        await request(t.url)
          .get('/v1/recetas/listar')
          .query({ ...range(), per_page: 200, as_of: first.as_of })
          .set(owner.headers)
          .expect(200)
      ).body.data;
      expect(again.items.map((i: { cuir: string }) => i.cuir)).toContain(cuir);
      expect(again.total).toBe(first.total);
    } finally {
      await sql(replica.url(), 'SELECT pg_wal_replay_resume()');
    }
  });

  it('reads from the primary when the replica cannot be reached: a lost replica is no outage', async () => {
    const body = registrationBody();
    const cuir = body.cuir as string;
    await register(t, owner, body).expect(201);
    replica.stop('fast');
    try {
      expect((await verificar(cuir).expect(200)).body.data.cuir).toBe(cuir);
      await publico(cuir).expect(200);
      await request(t.url)
        .get('/v1/medicamentos/buscar?q=ibuprofeno')
        .set(owner.headers)
        .expect(200);
      await register(t, owner, registrationBody()).expect(201);
      expect(t.rawLogs()).toMatch(/the read replica cannot be reached/);
    } finally {
      replica.start();
    }
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
