import type { DataSource, QueryRunner } from 'typeorm';
import type { AuditSealer } from '../src/auditoria/audit-sealer.js';
import { AuditDatabase, AuditHandle, openAuditDatabase } from './support/audit-db.js';

const client = '0b5c7a4e-1111-4222-8333-444455556666';

const write = async (q: QueryRunner | DataSource): Promise<string> => {
  const [{ id }]: Array<{ id: string }> = await q.query(
    `INSERT INTO auditoria_eventos (tipo, actor, resultado) VALUES ('registro', 'paciente', 'ok') RETURNING id::text`,
  );
  return id;
};

/**
 * Sealing while events commit in another order than their ids were drawn, and two sealers
 * at once (contract §8: one chain, no event lost or sealed twice, no global lock on writers).
 * A seal only covers transactions below the cluster's oldest running one, and on a shared
 * server that may be another database's: so what must be sealed is waited for, and only what
 * must NOT be sealed is asserted at once.
 */
describe('event log: sealing under concurrency', () => {
  let db: AuditDatabase;
  let a: AuditHandle;

  beforeAll(async () => {
    db = await openAuditDatabase();
    a = await db.open();
  });
  afterAll(() => db?.close());

  it('seals a backlog in capped seals, and a transaction larger than the cap whole', async () => {
    await a.sealAll();
    const [{ last }] = await a.ds.query(
      `SELECT COALESCE(max(id), 0)::int AS last FROM auditoria_sellos`,
    );
    const big: Array<{ id: string }> = await a.ds.query(
      `INSERT INTO auditoria_eventos (tipo, actor, resultado)
       SELECT 'reserva', 'paciente', 'ok' FROM generate_series(1, 30) RETURNING id::text`,
    );
    for (let i = 0; i < 25; i++) await write(a.ds);
    await a.sealAll(20_000, 10);
    const seals: Array<{ id: string; eventos: number }> = await a.ds.query(
      `SELECT s.id::text, s.eventos::int FROM auditoria_sellos s WHERE s.id > $1 ORDER BY s.id`,
      [last],
    );
    const bigSeal = await a.sealOf(big[0].id);
    for (const { id } of big) expect(await a.sealOf(id)).toBe(bigSeal);
    expect(seals.find((s) => s.id === bigSeal)?.eventos).toBe(30);
    expect(seals.filter((s) => s.id !== bigSeal).every((s) => s.eventos <= 10)).toBe(true);
    expect(seals.reduce((n, s) => n + s.eventos, 0)).toBe(55);
    expect((await a.verify()).ok).toBe(true);
  });

  it('seals an event only once its transaction has ended, whatever the id order', async () => {
    const slow = a.ds.createQueryRunner();
    const fast = a.ds.createQueryRunner();
    try {
      // `slow` takes its transaction id first and draws its event id last: an older
      // transaction holding a higher id.
      await slow.startTransaction();
      await slow.query('SELECT pg_current_xact_id()');
      await fast.startTransaction();
      await fast.query('SELECT pg_current_xact_id()');
      const low = await write(fast);
      const high = await write(slow);
      expect(BigInt(low)).toBeLessThan(BigInt(high));
      await a.sealer.sealNow();
      expect([await a.sealOf(low), await a.sealOf(high)]).toEqual([null, null]);

      await slow.commitTransaction(); // the higher id is final; the lower one is still open
      const highSeal = await a.sealUntilCovered(high);
      expect(await a.sealOf(low)).toBeNull();
      await fast.commitTransaction(); // the lower id commits after a seal covering a higher one
      const lowSeal = await a.sealUntilCovered(low);
      expect(BigInt(lowSeal)).toBeGreaterThan(BigInt(highSeal));

      // And a younger transaction that commits first waits for the older one still open.
      await slow.startTransaction();
      await slow.query('SELECT pg_current_xact_id()');
      const before = await write(slow);
      const after = await write(a.ds); // autocommit, younger
      await a.sealer.sealNow();
      expect([await a.sealOf(before), await a.sealOf(after)]).toEqual([null, null]);
      await slow.commitTransaction();
      await a.sealUntilCovered(after);
      await a.sealUntilCovered(before);
      expect(await a.verify()).toMatchObject({ ok: true, problemas: [] });
    } finally {
      if (slow.isTransactionActive) await slow.rollbackTransaction();
      if (fast.isTransactionActive) await fast.rollbackTransaction();
      await slow.release();
      await fast.release();
    }
  });

  it('two sealers (two pools) racing under concurrent writers keep one valid chain', async () => {
    const b = await db.open();
    const [{ before }] = await a.ds.query(`SELECT count(*)::int AS before FROM auditoria_eventos`);
    let writing = true;
    const writers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; i < 40; i++) {
        const h = i % 2 ? a : b;
        await h.transactions.run(async () => {
          for (const tipo of ['reserva', 'dispensa']) {
            await h.service.record({
              tipo,
              actor: client,
              resultado: 'ok',
              idTransaccion: w + 1,
            });
          }
        });
      }
    });
    const sealing = async (s: AuditSealer) => {
      for (let runs = 0; writing || runs < 3; runs++) await s.sealNow(50); // small seals: many races
    };
    const sealers = [sealing(a.sealer), sealing(b.sealer)];
    await Promise.all(writers);
    writing = false;
    await Promise.all(sealers);
    await a.sealAll();

    const [{ total, seals, sealed, first, last }] = await a.ds.query(
      `SELECT (SELECT count(*)::int FROM auditoria_eventos) AS total, count(*)::int AS seals,
              sum(eventos)::int AS sealed, min(id)::int AS first, max(id)::int AS last
         FROM auditoria_sellos`,
    );
    expect(total - before).toBe(6 * 40 * 2);
    expect(sealed).toBe(total); // every event in one seal only (verify checks which)
    expect([first, last]).toEqual([1, seals]);
    const report = await b.verify();
    expect(report).toMatchObject({ ok: true, pendientes: 0, eventos: total, sellos: seals });
    expect(report.ultimo_sello?.id).toBe(String(last));
    expect(seals).toBeGreaterThan(10); // small seals: the head is found by number, not by text
  });

  it('the seals table refuses a fork even without the lock', async () => {
    await a.service.record({ tipo: 'registro', actor: client, resultado: 'ok' });
    const x = a.ds.createQueryRunner();
    const y = a.ds.createQueryRunner();
    try {
      // Wait until the event is final (another database's transaction may hold the boundary).
      for (const end = Date.now() + 20_000; ;) {
        await x.startTransaction();
        if (await a.sellos.sealNext(x.manager, 1000)) break;
        await x.rollbackTransaction();
        if (Date.now() > end) throw new Error('nothing became sealable');
        await new Promise((r) => setTimeout(r, 100));
      }
      await y.startTransaction();
      // Same head: waits on the key. Settled into a value at once, so no rejection goes unhandled.
      const forked = a.sellos.sealNext(y.manager, 1000).then(
        () => 'written',
        (err: Error) => err.message,
      );
      await new Promise((r) => setTimeout(r, 200));
      await x.commitTransaction();
      expect(await forked).toMatch(/duplicate key|auditoria_sellos_pkey/);
      await y.rollbackTransaction();
    } finally {
      if (x.isTransactionActive) await x.rollbackTransaction();
      await x.release();
      await y.release();
    }
    expect((await a.verify()).ok).toBe(true);
  });
});
