import fc from 'fast-check';
import { eventHash, type EventFields } from '../src/auditoria/audit-hash.js';
import { AUDIT_EVENT_CHECKS } from '../src/auditoria/migrations/1795728400000-AuditoriaEventoEnLinea.js';
import { AuditDatabase, AuditHandle, openAuditDatabase } from './support/audit-db.js';

const client = '0b5c7a4e-1111-4222-8333-444455556666';

/** The column each CHECK reads, and its SQL type. */
const COLUMNS: Record<keyof typeof AUDIT_EVENT_CHECKS.regex, [string, string]> = {
  auditoria_eventos_tipo_check: ['tipo', 'text'],
  auditoria_eventos_cuir_check: ['cuir', 'char(41)'],
  auditoria_eventos_actor_check: ['actor', 'text'],
  auditoria_eventos_resultado_check: ['resultado', 'text'],
  auditoria_eventos_request_id_check: ['request_id', 'text'],
  auditoria_eventos_client_request_id_check: ['client_request_id', 'text'],
};

// Characters on both sides of every class the CHECKs use, and a few that no class holds.
const UNITS = [...'azAZ09_-.:gG~ /\\|é\n\t', 'ñ', '🙂'];
const near = (max: number) =>
  fc.array(fc.constantFrom(...UNITS), { maxLength: max }).map((cs) => cs.join(''));
const uuid = fc.uuid().map((u) => u.toLowerCase());
/** A valid value with one character changed, dropped or doubled: the CHECK's edges. */
const mutated = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, fc.nat(), fc.constantFrom(...UNITS), fc.constantFrom('set', 'drop', 'dup'))
    .map(([s, i, c, op]) => {
      if (s.length === 0) return c;
      const k = i % s.length;
      if (op === 'set') return s.slice(0, k) + c + s.slice(k + 1);
      if (op === 'drop') return s.slice(0, k) + s.slice(k + 1);
      return s.slice(0, k) + s[k] + s.slice(k);
    });
const repeat = (c: string) => fc.integer({ min: 0, max: 140 }).map((n) => c.repeat(n));

/** Values for each column: valid ones, their near misses, lengths around every bound. */
const VALUES: Record<string, fc.Arbitrary<string>> = {
  tipo: fc.oneof(near(45), mutated(fc.constantFrom('registro', 'reserva_liberada')), repeat('a')),
  cuir: fc.oneof(
    fc.stringMatching(/^[0-9]{30,41}$/),
    mutated(fc.stringMatching(/^[0-9]{41}$/)),
    near(41).filter((s) => s.length <= 41),
  ),
  actor: fc.oneof(uuid, mutated(uuid), mutated(fc.constantFrom('paciente', 'a_b')), near(40)),
  resultado: fc.oneof(
    fc.constantFrom('ok', 'OK', 'ok ', 'NOT_FOUND', 'A', 'AB'),
    mutated(fc.constantFrom('PRESCRIPTION_CANCELLED')),
    repeat('Z'),
    near(70),
  ),
  request_id: fc.oneof(uuid, mutated(uuid), repeat('x'), near(140)),
  client_request_id: fc.oneof(uuid, mutated(uuid), repeat('.'), near(140)),
};

/**
 * The event insert after issue 30 (migration 1795728400000): the trigger's tests, without
 * bounded regex repetitions, accept exactly what the old CHECKs did, and its inline text hashes
 * every kind of event as auditoria_texto_evento() and verify (audit-hash.ts) do.
 */
describe('event log: the insert', () => {
  let db: AuditDatabase;
  let a: AuditHandle;

  beforeAll(async () => {
    db = await openAuditDatabase();
    a = await db.open();
  });
  afterAll(() => db?.close());

  it.each(Object.entries(COLUMNS))(
    '%s: the trigger accepts exactly what the CHECK did',
    async (name, [column, type]) => {
      const key = name as keyof typeof COLUMNS;
      const samples = fc.sample(VALUES[column], { numRuns: 3000, seed: 30 });
      const values = [...new Set(samples)];
      const rows: Array<{ v: string | null; regex: boolean | null; cheap: boolean | null }> =
        await a.ds.query(
          `SELECT ${column}::text AS v, (${AUDIT_EVENT_CHECKS.regex[key]}) AS regex,
                  (${AUDIT_EVENT_CHECKS.cheap[key]('')}) AS cheap
             FROM (SELECT x::${type} AS ${column} FROM unnest($1::text[]) x) s`,
          [[...values, null]],
        );
      expect(rows.filter((r) => r.regex !== r.cheap)).toEqual([]);
      // Both sides were exercised.
      expect(rows.some((r) => r.regex === true)).toBe(true);
      expect(rows.some((r) => r.regex === false)).toBe(true);
      expect(rows.find((r) => r.v === null)).toMatchObject({ regex: null, cheap: null });
    },
  );

  it('the trigger refuses each of them with its check_violation; no CHECK is left', async () => {
    const checks: Array<{ n: number }> = await a.ds.query(
      `SELECT count(*)::int AS n FROM pg_constraint
        WHERE conrelid = 'auditoria_eventos'::regclass AND contype = 'c'`,
    );
    expect(checks[0].n).toBe(0);
    const good = {
      tipo: 'registro',
      cuir: '1'.repeat(41),
      actor: client,
      resultado: 'ok',
      request_id: 'r',
      client_request_id: 'c',
    };
    const bad: Record<string, string> = {
      tipo: 'Registro',
      cuir: '1'.repeat(40),
      actor: client.toUpperCase(),
      resultado: 'Ok',
      request_id: 'x'.repeat(129),
      client_request_id: 'a b',
    };
    for (const [name, [column]] of Object.entries(COLUMNS)) {
      const row = { ...good, [column]: bad[column] };
      const insert = a.ds.query(
        `INSERT INTO auditoria_eventos (tipo, cuir, actor, resultado, request_id, client_request_id)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        Object.values(row),
      );
      await expect(insert).rejects.toMatchObject({
        code: '23514',
        constraint: name,
        message: `new row for relation "auditoria_eventos" violates check constraint "${name}"`,
      });
    }
    await a.ds.query(
      `INSERT INTO auditoria_eventos (tipo, cuir, actor, resultado, request_id, client_request_id)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      Object.values(good),
    );
  });

  it('hashes every kind of event as auditoria_texto_evento() and verify do', async () => {
    const ids: string[] = [];
    for (const cuir of [null, '1'.repeat(41)])
      for (const idTransaccion of [null, '9223372036854775807'])
        for (const requestId of [null, 'req:1.a-b_c'])
          for (const clientRequestId of [null, 'X'.repeat(128)])
            ids.push(
              await a.service.record({
                tipo: 'verificacion',
                cuir,
                idTransaccion,
                actor: cuir ? client : 'paciente',
                resultado: requestId ? 'ok' : 'NOT_FOUND',
                requestId,
                clientRequestId,
              }),
            );
    const rows: Array<EventFields & { hash: Buffer; fn: Buffer }> = await a.ds.query(
      `SELECT e.id::text, to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
              e.tipo, e.cuir::text AS cuir, e.id_transaccion::text, e.actor, e.resultado,
              e.request_id, e.client_request_id, e.xid::text, e.hash,
              sha256(convert_to(auditoria_texto_evento(e), 'UTF8')) AS fn
         FROM auditoria_eventos e WHERE e.id = ANY($1::bigint[]) ORDER BY e.id`,
      [ids],
    );
    expect(rows).toHaveLength(16);
    for (const row of rows) {
      expect(row.hash.toString('hex')).toBe(row.fn.toString('hex'));
      expect(row.hash.toString('hex')).toBe(eventHash(row).toString('hex'));
    }
  });
});
