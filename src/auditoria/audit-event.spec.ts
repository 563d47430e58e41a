import { loadAppConfig as loadConfig } from '../slices.js';
import { auditoriaSettings } from './auditoria.settings.js';
import { auditEventRow, InvalidAuditEvent } from './audit-event.js';
import { latestPurgeDate } from './audit-purger.js';

const cuir = '1'.repeat(41);
const client = '0b5c7a4e-1111-4222-8333-444455556666';

describe('auditEventRow', () => {
  it('keeps a well-formed event as it is', () => {
    expect(
      auditEventRow({
        tipo: 'dispensa',
        cuir,
        idTransaccion: 42n,
        actor: client,
        resultado: 'PRESCRIPTION_CANCELLED',
        requestId: 'req-1',
        clientRequestId: 'pos-7',
      }),
    ).toEqual({
      tipo: 'dispensa',
      cuir,
      id_transaccion: '42',
      actor: client,
      resultado: 'PRESCRIPTION_CANCELLED',
      request_id: 'req-1',
      client_request_id: 'pos-7',
    });
  });

  it('drops request-borne optional fields that are malformed (a refusal is still logged)', () => {
    expect(
      auditEventRow({
        tipo: 'verificacion',
        cuir: '123',
        idTransaccion: 'abc',
        actor: 'paciente',
        resultado: 'NOT_FOUND',
        requestId: 'has space',
        clientRequestId: 'bad <id>',
      }),
    ).toMatchObject({
      cuir: null,
      id_transaccion: null,
      request_id: null,
      client_request_id: null,
    });
    expect(
      auditEventRow({
        tipo: 'registro',
        actor: client,
        resultado: 'ok',
        idTransaccion: '99999999999999999999',
      }),
    ).toMatchObject({ id_transaccion: null });
  });

  it('lower-cases a client id given in capitals', () => {
    expect(
      auditEventRow({ tipo: 'registro', actor: client.toUpperCase(), resultado: 'ok' }).actor,
    ).toBe(client);
  });

  it.each([
    ['tipo', { tipo: 'Registro' }],
    ['tipo', { tipo: 'x' }],
    ['actor', { actor: 'Laura Gómez' }],
    ['actor', { actor: '' }],
    ['resultado', { resultado: 'Ok' }],
    ['resultado', { resultado: 'not found' }],
  ])('refuses a malformed %s (a programming error, named)', (field, over) => {
    const e = { tipo: 'registro', actor: client, resultado: 'ok', ...over };
    expect(() => auditEventRow(e)).toThrow(InvalidAuditEvent);
    expect(() => auditEventRow(e)).toThrow(field);
  });
});

describe('retention', () => {
  it('accepts as latest purge date the UTC date N years back', () => {
    expect(latestPurgeDate(new Date('2031-03-10T01:00:00Z'), 5)).toBe('2026-03-10');
    expect(latestPurgeDate(new Date('2030-02-28T23:59:59Z'), 7)).toBe('2023-02-28');
  });

  it('refuses AUDIT_RETENTION_YEARS below the five-year floor; defaults to 5 and sealing every 60 s', () => {
    expect(() => loadConfig({ AUDIT_RETENTION_YEARS: '4' })).toThrow(/AUDIT_RETENTION_YEARS/);
    expect(() => loadConfig({ AUDIT_SEAL_SECONDS: '-1' })).toThrow(/AUDIT_SEAL_SECONDS/);
    expect(loadConfig({}).settings(auditoriaSettings)).toEqual({
      sealSeconds: 60,
      retentionYears: 5,
    });
    expect(
      loadConfig({ AUDIT_SEAL_SECONDS: '0', AUDIT_RETENTION_YEARS: '10' }).settings(
        auditoriaSettings,
      ),
    ).toEqual({
      sealSeconds: 0,
      retentionYears: 10,
    });
  });
});
