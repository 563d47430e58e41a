import { SqlParams } from '../src/common/sql/sql-params.js';
import { AuditoriaService } from '../src/auditoria/auditoria.service.js';
import { AuditDatabase, AuditHandle, openAuditDatabase } from './support/audit-db.js';
import { startTestApp } from './support/test-app.js';

const client = '0b5c7a4e-1111-4222-8333-444455556666';
const cuir = '10001000100000001000000000000000000000042';

/**
 * The event log's writer, its append-only tables, and the service's sealer (contract §8). Sealing
 * under concurrent writers and sealers: auditoria-sellos.e2e-spec.ts; verify's tamper cases
 * and the purge: auditoria-verify.e2e-spec.ts.
 */
describe('event log: writing', () => {
  let db: AuditDatabase;
  let a: AuditHandle;

  beforeAll(async () => {
    db = await openAuditDatabase();
    a = await db.open();
  });
  afterAll(() => db?.close());

  const eventsOf = (id: string) => a.service.listForReceta(id, { limit: 10, offset: 0 });

  it('records an event with its actor and result, inside the caller transaction only', async () => {
    await expect(
      a.transactions.run(async () => {
        await a.service.record({
          tipo: 'anulacion',
          idTransaccion: '9001',
          actor: client,
          resultado: 'ok',
        });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect((await eventsOf('9001')).total).toBe(0);

    const id = await a.transactions.run(() =>
      a.service.record({
        tipo: 'anulacion',
        cuir,
        idTransaccion: '9001',
        actor: client,
        resultado: 'ok',
        requestId: 'req-9001',
      }),
    );
    const page = await eventsOf('9001');
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      id,
      tipo: 'anulacion',
      cuir,
      idTransaccion: '9001',
      actor: client,
      resultado: 'ok',
      requestId: 'req-9001',
    });
    expect(Date.now() - page.items[0].at.getTime()).toBeLessThan(60_000);
  });

  it('logs a refused action with its code, on its own when the action wrote nothing', async () => {
    await a.service.record({
      tipo: 'dispensa',
      cuir,
      idTransaccion: '9002',
      actor: client,
      resultado: 'PRESCRIPTION_CANCELLED',
    });
    await a.service.record({
      tipo: 'acceso_paciente',
      cuir: 'junk',
      actor: 'paciente',
      resultado: 'NOT_FOUND',
    });
    expect((await eventsOf('9002')).items.map((e) => [e.tipo, e.actor, e.resultado])).toEqual([
      ['dispensa', client, 'PRESCRIPTION_CANCELLED'],
    ]);
  });

  it('lists one prescription events oldest first, paged, with the total', async () => {
    for (const resultado of ['ok', 'NOT_FOUND', 'ok', 'FORBIDDEN', 'ok']) {
      await a.service.record({
        tipo: 'verificacion',
        idTransaccion: '9003',
        actor: client,
        resultado,
      });
    }
    const first = await a.service.listForReceta('9003', { limit: 2, offset: 0 });
    const rest = await a.service.listForReceta('9003', { limit: 10, offset: 2 });
    expect(first.total).toBe(5);
    expect([...first.items, ...rest.items].map((e) => e.resultado)).toEqual([
      'ok',
      'NOT_FOUND',
      'ok',
      'FORBIDDEN',
      'ok',
    ]);
    const ids = [...first.items, ...rest.items].map((e) => BigInt(e.id));
    expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
  });

  it('writes the event in the same statement as its row (eventInStatement), or not at all', async () => {
    const event = a.service.eventInStatement({
      tipo: 'registro',
      cuir,
      actor: client,
      resultado: 'ok',
    });
    const run = (source: string, tail = 'SELECT 1') => {
      const p = new SqlParams();
      return a.ds.query(`WITH r AS (${source}), e AS (${event(p, 'r')}) ${tail}`, p.values);
    };
    await run(`SELECT 9004::bigint AS id`);
    await run(`SELECT 9005::bigint AS id WHERE false`); // e.g. an Idempotency-Key gate said no
    await expect(run(`SELECT 9006::bigint AS id`, 'SELECT 1 / 0')).rejects.toThrow(/division/);
    expect((await eventsOf('9004')).items).toMatchObject([
      { tipo: 'registro', cuir, actor: client },
    ]);
    expect((await eventsOf('9005')).total).toBe(0);
    expect((await eventsOf('9006')).total).toBe(0);
  });

  it.each([
    ['UPDATE', `UPDATE auditoria_eventos SET resultado = 'FORBIDDEN'`],
    ['DELETE', `DELETE FROM auditoria_eventos`],
    ['TRUNCATE', `TRUNCATE auditoria_eventos`],
    ['UPDATE of a seal', `UPDATE auditoria_sellos SET eventos = eventos + 1`],
    ['DELETE of a seal', `DELETE FROM auditoria_sellos`],
    ['TRUNCATE of the seals', `TRUNCATE auditoria_sellos CASCADE`],
  ])('the database refuses %s on the log', async (_op, sql) => {
    await a.sealAll(); // so there are seals to refuse too
    await expect(a.ds.query(sql)).rejects.toThrow(/append-only/);
  });

  it('refuses even the purge path for events younger than five years', async () => {
    const id = await a.service.record({ tipo: 'registro', actor: client, resultado: 'ok' });
    await expect(
      a.ds.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO auditoria_purgas (antes_de, sellos, eventos) VALUES (now(), '{}', 0)`,
        );
        await tx.query(`SET LOCAL auditoria.purga = 'on'`);
        await tx.query(`DELETE FROM auditoria_eventos WHERE id = $1`, [id]);
      }),
    ).rejects.toThrow(/append-only/);
    // The writer cannot back-date an event or its transaction either.
    await a.ds.query(
      `INSERT INTO auditoria_eventos (tipo, actor, resultado, at, xid, hash)
       VALUES ('registro', 'paciente', 'ok', '2001-01-01', '3', '\\x00')`,
    );
    const [row] = await a.ds.query(
      `SELECT at, xid::text, length(hash) AS n FROM auditoria_eventos ORDER BY id DESC LIMIT 1`,
    );
    expect(Date.now() - new Date(row.at).getTime()).toBeLessThan(60_000);
    expect(row.xid).not.toBe('3');
    expect(row.n).toBe(32);
  });

  it('the service seals on its own every AUDIT_SEAL_SECONDS', async () => {
    const t = await startTestApp({
      DATABASE_URL: db.url,
      AUDIT_SEAL_SECONDS: '1',
      LOG_LEVEL: 'debug',
    });
    try {
      const id = await t.app
        .get(AuditoriaService)
        .record({ tipo: 'documento', actor: 'paciente', resultado: 'ok' });
      const sealedAt = Date.now() + 15_000;
      let covered = false;
      while (!covered && Date.now() < sealedAt) {
        await new Promise((r) => setTimeout(r, 250));
        const [row] = await a.ds.query(
          `SELECT EXISTS (SELECT 1 FROM auditoria_sellos WHERE ids @> $1::bigint) AS c`,
          [id],
        );
        covered = row.c;
      }
      expect(covered).toBe(true);
      expect(t.logs.some((l) => l.msg === 'event log sealed' && l.component === 'auditoria')).toBe(
        true,
      );
    } finally {
      await t.stop();
    }
  });
});
