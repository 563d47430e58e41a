import { AuditVerifier } from '../src/auditoria/audit-verifier.js';
import { asegurarParticiones } from '../src/database/particiones/particiones.js';
import { AuditDatabase, AuditHandle, openAuditDatabase, runCli } from './support/audit-db.js';

const client = '0b5c7a4e-1111-4222-8333-444455556666';
const yearsAgo = (n: number) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - n);
  return d.toISOString().slice(0, 10);
};
// The row hash as the insert trigger computes it (a forger who knows the scheme).
const REHASH = `hash = sha256(convert_to(auditoria_texto_evento(e), 'UTF8'))`;
// The row hash as the first migration's trigger computed it, before client_request_id existed.
const FIRST_HASH = `hash = sha256(convert_to(concat_ws('|', 'ev1', auditoria_campo(e.id::text),
  auditoria_campo(auditoria_instante(e.at)), auditoria_campo(e.tipo), auditoria_campo(e.cuir::text),
  auditoria_campo(e.id_transaccion::text), auditoria_campo(e.actor), auditoria_campo(e.resultado),
  auditoria_campo(e.request_id), auditoria_campo(e.xid::text)), 'UTF8'))`;

/**
 * `auditoria verificar` (run as the operator runs it) on a clean log and after a forger with
 * superuser rights (triggers off) altered, deleted or inserted a sealed event, re-hashed one,
 * or altered a seal; and `auditoria purgar` (contract §8). Each forgery is undone afterwards.
 */
describe('event log: verify and purge', () => {
  let db: AuditDatabase;
  let a: AuditHandle;
  let sealed: string[];
  const cli = (args: string[], env?: Record<string, string>) =>
    runCli(db.url, ['auditoria', ...args], env);

  beforeAll(async () => {
    db = await openAuditDatabase();
    a = await db.open();
    sealed = [];
    for (let i = 0; i < 30; i++) {
      sealed.push(
        await a.service.record({
          tipo: ['registro', 'verificacion', 'dispensa'][i % 3],
          cuir: '1'.repeat(41),
          idTransaccion: i + 1,
          actor: i % 5 ? client : 'paciente',
          resultado: i % 4 ? 'ok' : 'NOT_FOUND',
          requestId: `req-${i}`,
          // Half with a client's X-Request-Id (hashed as ev2), half without (ev1).
          clientRequestId: i % 2 ? `pos-${i}` : null,
        }),
      );
    }
    await a.sealAll();
  });
  afterAll(() => db?.close());

  const sealOfOrFail = async (id: string) => {
    const seal = await a.sealOf(id);
    if (!seal) throw new Error(`event ${id} is not sealed`);
    return seal;
  };
  // A row as SQL literals, to put it back as it was (every value is plain ASCII).
  const literals = async (table: string, id: string, columns: string[]) => {
    const [row] = await a.ds.query(
      `SELECT ${columns.map((c) => `${c}::text AS ${c}`).join(', ')} FROM ${table} WHERE id = $1`,
      [id],
    );
    return columns.map((c) => (row[c] === null ? 'NULL' : `'${row[c]}'`)).join(', ');
  };

  it('passes on a clean log, printing the events and seals checked and the pending ones', async () => {
    await a.service.record({ tipo: 'registro', actor: client, resultado: 'ok' }); // not sealed yet
    const run = await cli(['verificar']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(
      /^event log verified: \d+ events in \d+ seals \(0 purged\), [1-9]\d* pending \(not yet sealed\); last seal \d+ [0-9a-f]{64}\n$/,
    );
    const json = await cli(['verificar', '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ ok: true, problemas: [] });
    expect(report.eventos).toBeGreaterThanOrEqual(30);
    expect(report.pendientes).toBeGreaterThanOrEqual(1);
  });

  it('exits 1 naming an altered sealed event', async () => {
    const id = sealed[7]; // resultado ok
    await db.forge(`UPDATE auditoria_eventos SET resultado = 'FORBIDDEN' WHERE id = ${id}`);
    try {
      const run = await cli(['verificar']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`  event ${id}: altered\n`);
      expect(run.stderr).toContain(`event ${id}: altered`);
    } finally {
      await db.forge(`UPDATE auditoria_eventos SET resultado = 'ok' WHERE id = ${id}`);
    }
    expect((await a.verify()).ok).toBe(true);
  });

  it('exits 1 naming a sealed event whose client request id was altered, added or removed', async () => {
    const [withId, without] = [sealed[9], sealed[10]]; // pos-9; none
    for (const [id, forged, back] of [
      [withId, `'ANMAT:otra-cosa'`, `'pos-9'`],
      [withId, 'NULL', `'pos-9'`],
      [without, `'ANMAT:plantado'`, 'NULL'],
    ]) {
      await db.forge(`UPDATE auditoria_eventos SET client_request_id = ${forged} WHERE id = ${id}`);
      try {
        expect((await a.verify()).problemas).toEqual([`event ${id}: altered`]);
      } finally {
        await db.forge(`UPDATE auditoria_eventos SET client_request_id = ${back} WHERE id = ${id}`);
      }
    }
    expect((await a.verify()).ok).toBe(true);
  });

  it('verifies an event hashed before client_request_id existed (the first ev1 text)', async () => {
    await db.forge(
      `INSERT INTO auditoria_eventos (tipo, actor, resultado, request_id, hash)
         VALUES ('registro', 'paciente', 'ok', 'pre-27', '\\x00');
       UPDATE auditoria_eventos e SET ${FIRST_HASH} WHERE request_id = 'pre-27'`,
    );
    const [{ id }] = await a.ds.query(
      `SELECT id::text FROM auditoria_eventos WHERE request_id = 'pre-27'`,
    );
    await a.sealUntilCovered(id);
    const report = await a.verify();
    expect(report).toMatchObject({ ok: true, problemas: [] });
  });

  it('exits 1 naming a deleted sealed event', async () => {
    const id = sealed[12];
    const seal = await sealOfOrFail(id);
    const columns = ['id', 'at', 'tipo', 'cuir', 'id_transaccion', 'actor', 'resultado'];
    const cols = [...columns, 'request_id', 'client_request_id', 'xid', 'hash'];
    const values = await literals('auditoria_eventos', id, cols);
    await db.forge(`DELETE FROM auditoria_eventos WHERE id = ${id}`);
    try {
      const run = await cli(['verificar', '--json']);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout).problemas[0]).toBe(
        `event ${id}: deleted (sealed by seal ${seal})`,
      );
    } finally {
      await db.forge(
        `INSERT INTO auditoria_eventos (${cols.join(', ')}) OVERRIDING SYSTEM VALUE VALUES (${values})`,
      );
    }
    expect((await a.verify()).ok).toBe(true);
  });

  it('exits 1 naming an event inserted into a sealed range', async () => {
    const donor = sealed[20]; // the forged event claims this one's transaction
    const seal = await sealOfOrFail(donor);
    const forged = '1000000000000';
    await db.forge(
      `INSERT INTO auditoria_eventos (id, at, tipo, actor, resultado, xid, hash) OVERRIDING SYSTEM VALUE
         SELECT ${forged}, at, 'dispensa', actor, 'ok', xid, '\\x00' FROM auditoria_eventos WHERE id = ${donor};
       UPDATE auditoria_eventos e SET ${REHASH} WHERE id = ${forged}`,
    );
    try {
      const run = await cli(['verificar']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`  event ${forged}: not covered by seal ${seal} (inserted)\n`);
    } finally {
      await db.forge(`DELETE FROM auditoria_eventos WHERE id = ${forged}`);
    }
    expect((await a.verify()).ok).toBe(true);
  });

  it('names the seal when the forger also recomputed the altered event hash', async () => {
    const id = sealed[3];
    const seal = await sealOfOrFail(id);
    // Two statements: an UPDATE's expressions read the row as it was before it.
    await db.forge(`UPDATE auditoria_eventos SET actor = 'paciente' WHERE id = ${id};
      UPDATE auditoria_eventos e SET ${REHASH} WHERE id = ${id}`);
    try {
      const report = await a.verify();
      expect(report.ok).toBe(false);
      expect(report.problemas[0]).toBe(
        `seal ${seal}: its events do not match its digest (an event was altered and re-hashed)`,
      );
    } finally {
      await db.forge(`UPDATE auditoria_eventos SET actor = '${client}' WHERE id = ${id};
        UPDATE auditoria_eventos e SET ${REHASH} WHERE id = ${id}`);
    }
    expect((await a.verify()).ok).toBe(true);
  });

  it('names an altered seal, and the chain broken after it', async () => {
    const seal = await sealOfOrFail(sealed[0]);
    const next = String(BigInt(seal) + 1n);
    await a.service.record({ tipo: 'registro', actor: client, resultado: 'ok' });
    await a.sealAll(); // so a next seal exists
    const hash = await literals('auditoria_sellos', seal, ['hash']);
    await db.forge(
      `UPDATE auditoria_sellos SET ultimo_at = ultimo_at - interval '1 second' WHERE id = ${seal}`,
    );
    try {
      expect((await a.verify()).problemas).toEqual([
        `seal ${seal}: altered (its hash does not match its fields)`,
      ]);
      await db.forge(`UPDATE auditoria_sellos SET hash = sha256(hash) WHERE id = ${seal}`);
      expect((await a.verify()).problemas).toEqual([
        `seal ${seal}: altered (its hash does not match its fields)`,
        `seal ${next}: chain broken (previous hash differs)`,
      ]);
    } finally {
      await db.forge(
        `UPDATE auditoria_sellos SET ultimo_at = ultimo_at + interval '1 second', hash = ${hash}::bytea WHERE id = ${seal}`,
      );
    }
    expect((await a.verify()).ok).toBe(true);
  });

  describe('from a seal on (--desde)', () => {
    // Events of their own, sealed three at a time: a seal before the anchor, the anchor, after.
    let mine: string[];
    let before: string;
    let from: string;
    let after: string;
    const verifyFrom = (desde: string) => new AuditVerifier(a.sellos).verify({ desde });

    beforeAll(async () => {
      mine = [];
      for (let i = 0; i < 12; i++) {
        mine.push(
          await a.service.record({
            tipo: 'reserva',
            actor: client,
            resultado: 'ok',
            requestId: `d-${i}`,
          }),
        );
      }
      await a.sealAll(20_000, 3);
      [before, from, after] = await Promise.all([mine[0], mine[6], mine[11]].map(sealOfOrFail));
      expect(BigInt(before) < BigInt(from) && BigInt(from) < BigInt(after)).toBe(true);
    });

    it('checks the seals after it, its stored hash as the first link, and says which', async () => {
      const [anchor] = await a.ds.query(
        `SELECT encode(hash, 'hex') AS hash FROM auditoria_sellos WHERE id = $1`,
        [from],
      );
      const [later] = await a.ds.query(
        `SELECT count(*)::int AS sellos, sum(eventos)::int AS eventos FROM auditoria_sellos WHERE id > $1`,
        [from],
      );
      const run = await cli(['verificar', '--desde', from, '--json']);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(run.stdout)).toMatchObject({
        ok: true,
        desde: { id: from, hash: anchor.hash },
        sellos: later.sellos,
        eventos: later.eventos,
        problemas: [],
      });
      const text = await cli(['verificar', '--desde', from]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        new RegExp(
          `^event log verified: ${later.eventos} events in ${later.sellos} seals \\(0 purged\\) after seal ${from} ${anchor.hash}, \\d+ pending \\(not yet sealed\\); last seal \\d+ [0-9a-f]{64}\n$`,
        ),
      );
    });

    it('finds tampering after it, and does not examine the seals up to it', async () => {
      const undo: string[] = [];
      try {
        await db.forge(
          `UPDATE auditoria_eventos SET resultado = 'FORBIDDEN' WHERE id = ${mine[11]}`,
        );
        undo.push(`UPDATE auditoria_eventos SET resultado = 'ok' WHERE id = ${mine[11]}`);
        const run = await cli(['verificar', '--desde', from]);
        expect(run.code).toBe(1);
        expect(run.stdout).toContain(`  event ${mine[11]}: altered\n`);
        expect(run.stderr).toContain(`event ${mine[11]}: altered`);
        await db.forge(undo.pop()!);

        // An event of an earlier seal and one of the anchor itself altered, the anchor's own
        // fields too: not examined from it on; the full check names them.
        for (const id of [mine[0], mine[6]]) {
          await db.forge(`UPDATE auditoria_eventos SET actor = 'paciente' WHERE id = ${id}`);
          undo.push(`UPDATE auditoria_eventos SET actor = '${client}' WHERE id = ${id}`);
        }
        await db.forge(`UPDATE auditoria_sellos SET eventos = eventos + 1 WHERE id = ${before}`);
        undo.push(`UPDATE auditoria_sellos SET eventos = eventos - 1 WHERE id = ${before}`);
        expect(await verifyFrom(from)).toMatchObject({ ok: true, problemas: [] });
        expect((await a.verify()).problemas).toEqual(
          expect.arrayContaining([`event ${mine[0]}: altered`, `event ${mine[6]}: altered`]),
        );
        // A seal after it that no longer follows it is named.
        const original = await hashLiteral(from);
        await db.forge(`UPDATE auditoria_sellos SET hash = sha256(hash) WHERE id = ${from}`);
        undo.push(`UPDATE auditoria_sellos SET hash = ${original} WHERE id = ${from}`);
        expect((await verifyFrom(from)).problemas).toEqual([
          `seal ${BigInt(from) + 1n}: chain broken (previous hash differs)`,
        ]);
      } finally {
        for (const sql of undo.reverse()) await db.forge(sql);
      }
      expect((await a.verify()).ok).toBe(true);
    });

    it('an unknown seal is an error naming the seals there are (exit 1, nothing on stdout)', async () => {
      const [{ last }] = await a.ds.query(`SELECT max(id)::text AS last FROM auditoria_sellos`);
      for (const desde of ['999999', '0', 'x']) {
        const run = await cli(['verificar', '--desde', desde]);
        expect(run).toMatchObject({ code: 1, stdout: '' });
        expect(run.stderr).toBe(
          `error: seal ${desde} does not exist (the seals are 1 to ${last})\n`,
        );
      }
    });

    const hashLiteral = async (id: string) => {
      const [{ h }] = await a.ds.query(
        `SELECT '\\x' || encode(hash, 'hex') AS h FROM auditoria_sellos WHERE id = $1`,
        [id],
      );
      return `'${h}'::bytea`;
    };
  });

  it('purge refuses a date within the retention, naming it (exit 1)', async () => {
    const recent = await cli(['purgar', '--antes-de', yearsAgo(1)]);
    expect(recent.code).toBe(1);
    expect(recent.stderr).toContain(`refused: ${yearsAgo(1)} is within the retention of 5 years`);
    const longer = await cli(['purgar', '--antes-de', yearsAgo(7)], {
      AUDIT_RETENTION_YEARS: '10',
    });
    expect(longer.code).toBe(1);
    expect(longer.stderr).toContain(`the latest date a purge accepts today is ${yearsAgo(10)}`);
    expect((await cli(['purgar', '--antes-de', '2020-02-30'])).code).toBe(1);
  });

  it('purge removes the events of whole old seals, keeps the seals, and verify still passes', async () => {
    await a.sealAll();
    // Events of 2015, written as only a forger can (the trigger stamps now()), then sealed.
    await db.forge(
      `INSERT INTO auditoria_eventos (at, tipo, actor, resultado, hash)
         SELECT timestamptz '2015-03-01 10:00Z' + g * interval '1 hour', 'registro', 'paciente', 'ok', '\\x00'
           FROM generate_series(1, 5) g;
       UPDATE auditoria_eventos e SET ${REHASH} WHERE at < '2016-01-01'`,
    );
    const old: string[] = (
      await a.ds.query(
        `SELECT e.id::text FROM auditoria_eventos e WHERE e.at < '2016-01-01' ORDER BY e.id`,
      )
    ).map((r: { id: string }) => r.id);
    expect(old).toHaveLength(5);
    await a.sealAll();
    const seals = new Set(await Promise.all(old.map((id) => sealOfOrFail(id))));
    const [{ n: sealCount }] = await a.ds.query(`SELECT count(*)::int AS n FROM auditoria_sellos`);

    const run = await cli(['purgar', '--antes-de', '2016-01-01']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      `purged 5 events of ${seals.size} seal(s) older than 2016-01-01 (purge ${run.stdout.match(/purge (\d+)/)?.[1]}); the seals remain\n`,
    );
    const [{ n: left }] = await a.ds.query(
      `SELECT count(*)::int AS n FROM auditoria_eventos WHERE at < '2016-01-01'`,
    );
    expect(left).toBe(0);
    expect((await a.ds.query(`SELECT count(*)::int AS n FROM auditoria_sellos`))[0].n).toBe(
      sealCount,
    );

    const verify = await cli(['verificar', '--json']);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, sellos_purgados: seals.size });
    expect((await cli(['purgar', '--antes-de', '2016-01-01'])).stdout).toMatch(/^nothing to purge/);
  });
});

/**
 * `auditoria purgar` on a log partitioned by month (SPEC 10): a month holding only events of
 * purged seals is dropped whole (its partition), not deleted row by row; the seals stay, and
 * verify still passes.
 */
describe('event log: purge drops whole months', () => {
  let db: AuditDatabase;
  let a: AuditHandle;
  const cli = (args: string[]) => runCli(db.url, ['auditoria', ...args]);

  beforeAll(async () => {
    db = await openAuditDatabase();
    a = await db.open();
    // The months as the service makes them: this one and those ahead, the sequence moved on.
    await a.ds.transaction((tx) =>
      asegurarParticiones(tx, [{ table: 'auditoria_eventos', range: 'id' }]),
    );
  });
  afterAll(() => db?.close());

  it('drops the first partition when all its events are purged, deletes the rest row by row', async () => {
    // Events of 2015 in the first partition (ids from before the months), as a forger writes them.
    await db.forge(
      `INSERT INTO auditoria_eventos (id, at, tipo, actor, resultado, hash) OVERRIDING SYSTEM VALUE
         SELECT g, timestamptz '2015-03-01 10:00Z' + g * interval '1 hour', 'registro', 'paciente', 'ok', '\\x00'
           FROM generate_series(1, 6) g;
       UPDATE auditoria_eventos e SET ${REHASH} WHERE at < '2016-01-01'`,
    );
    await a.sealAll();
    for (let i = 0; i < 3; i++)
      await a.service.record({ tipo: 'registro', actor: client, resultado: 'ok' });
    await a.sealAll();

    const run = await cli(['purgar', '--antes-de', '2016-01-01', '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({
      eventos: 6,
      particiones: ['auditoria_eventos_p0'],
    });
    expect(await a.ds.query(`SELECT to_regclass('auditoria_eventos_p0') AS t`)).toEqual([
      { t: null },
    ]);
    const [{ n }] = await a.ds.query(`SELECT count(*)::int AS n FROM auditoria_eventos`);
    expect(n).toBeGreaterThanOrEqual(3);
    const verify = await cli(['verificar', '--json']);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, problemas: [] });
  });
});
