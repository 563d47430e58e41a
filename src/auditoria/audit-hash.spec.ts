import {
  eventHash,
  eventText,
  GENESIS,
  idsOf,
  parseIdRanges,
  rangesSize,
  sealHash,
  sealText,
  sha256,
} from './audit-hash.js';

// Rows and hashes written by PostgreSQL 15 through the migration's triggers: verify must agree.
const event1 = {
  id: '1',
  at: '2026-11-23T02:16:29.961307Z',
  tipo: 'registro',
  cuir: '1'.repeat(41),
  id_transaccion: '5',
  actor: 'paciente',
  resultado: 'ok',
  request_id: 'abc',
  client_request_id: null,
  xid: '6237',
};
const event2 = {
  id: '2',
  at: '2026-11-23T02:16:29.961307Z',
  tipo: 'verificacion',
  cuir: null,
  id_transaccion: null,
  actor: '0b5c7a4e-1111-4222-8333-444455556666',
  resultado: 'NOT_FOUND',
  request_id: null,
  client_request_id: null,
  xid: '6237',
};
const seal1 = {
  id: '1',
  at: '2026-11-23T02:18:41.806904Z',
  xid_desde: '0',
  xid_hasta: '6636',
  eventos: '2',
  ids: '{[1,3)}',
  ultimo_at: '2026-11-23T02:16:29.961307Z',
};

describe('event log hashes (the same texts as the SQL triggers)', () => {
  it('writes an event as PostgreSQL does, fields length-prefixed and NULL as ~', () => {
    expect(eventText(event1)).toBe(
      `ev1|1:1|27:2026-11-23T02:16:29.961307Z|8:registro|41:${'1'.repeat(41)}|1:5|8:paciente|2:ok|3:abc|4:6237`,
    );
    expect(eventText(event2)).toBe(
      'ev1|1:2|27:2026-11-23T02:16:29.961307Z|12:verificacion|~|~|36:0b5c7a4e-1111-4222-8333-444455556666|9:NOT_FOUND|~|4:6237',
    );
    expect(eventHash(event1).toString('hex')).toBe(
      'cfac29dc03af24fc96cece9d0c9e601f6f818da952f5cfaef07ad8eb6845f44f',
    );
    expect(eventHash(event2).toString('hex')).toBe(
      '9c5fd62ad13bd194222001fb3ae714f5029f7e257b316239c1450a487c3f4b13',
    );
  });

  it("hashes a client's request id too, in a text of its own (ev2); without one, ev1 as before", () => {
    const withClient = { ...event1, client_request_id: 'pos-1' };
    expect(eventText(withClient)).toBe(
      `ev2|1:1|27:2026-11-23T02:16:29.961307Z|8:registro|41:${'1'.repeat(41)}|1:5|8:paciente|2:ok|3:abc|5:pos-1|4:6237`,
    );
    expect(eventHash(withClient)).not.toEqual(eventHash(event1));
    // Moving an id from one column to the other changes the text.
    expect(eventText({ ...event1, request_id: null, client_request_id: 'abc' })).not.toBe(
      eventText({ ...event1, request_id: 'abc', client_request_id: null }),
    );
  });

  it('chains a seal as PostgreSQL does: sha256(previous || text || digest of its events)', () => {
    expect(sealText(seal1)).toBe(
      'se1|1:1|27:2026-11-23T02:18:41.806904Z|1:0|4:6636|1:2|7:{[1,3)}|27:2026-11-23T02:16:29.961307Z',
    );
    const digest = sha256(eventHash(event1), eventHash(event2));
    expect(digest.toString('hex')).toBe(
      'e3ae9e0392cae258633efdd4bde64272247f30adb6c5b6d6fd4dbab2cd570e9a',
    );
    expect(sealHash(GENESIS, seal1, digest).toString('hex')).toBe(
      'b8a392a2febf118e4dc7127fcca85d2ebeb6b9803e020854000a0bc5bb34d14c',
    );
  });

  it('tells NULL from an empty or a look-alike value', () => {
    const base = { ...event2 };
    expect(eventText({ ...base, request_id: '' })).not.toBe(eventText(base));
    expect(eventText({ ...base, request_id: '~' })).not.toBe(eventText(base));
    // A separator inside a value cannot shift the fields.
    expect(eventText({ ...base, tipo: 'a|1:b', actor: 'c' })).not.toBe(
      eventText({ ...base, tipo: 'a', actor: 'b|1:c' }),
    );
  });

  it('reads a canonical int8multirange and walks its ids', () => {
    const r = parseIdRanges('{[1,4),[7,9)}');
    expect(r).toEqual([
      [1n, 4n],
      [7n, 9n],
    ]);
    expect(rangesSize(r)).toBe(5n);
    expect([...idsOf(r)]).toEqual([1n, 2n, 3n, 7n, 8n]);
    expect(parseIdRanges('{}')).toEqual([]);
    expect(parseIdRanges('{[9007199254740993,9007199254740995)}')).toEqual([
      [9007199254740993n, 9007199254740995n],
    ]);
    expect(() => parseIdRanges('[1,4)')).toThrow();
    expect(() => parseIdRanges('{(1,4]}')).toThrow();
  });
});
