import request from 'supertest';
import { newCuir } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const LIMIT = 3;

/**
 * SPEC 11.7: per-address limits key an IPv6 address by its /64 (the allocation one site gets,
 * where every address is free to pick), an IPv4 address by itself, and an IPv4-mapped IPv6
 * address as the IPv4 it carries. The client address comes from X-Forwarded-For through a
 * trusted (loopback) proxy, as behind the ingress.
 */
describe('per-address limits: one key per IPv6 /64, per IPv4 address', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      TRUST_PROXY: 'loopback',
      VERIFICACION_PUBLICA_POR_MINUTO: String(LIMIT),
      PACIENTE_POR_IP_POR_MINUTO: String(LIMIT),
      AUTH_FAILURES_PER_MINUTE: String(LIMIT),
    });
  });
  afterAll(async () => {
    await t.stop();
  });

  const publico = (from: string) =>
    request(t.url)
      .get(`/r/${newCuir()}?f=x`)
      .set('Accept', 'application/json')
      .set('X-Forwarded-For', from);
  const paciente = (from: string) =>
    request(t.url)
      .get(`/v1/paciente/recetas/${newCuir()}`)
      .set('Authorization', 'Bearer not-a-token')
      .set('X-Forwarded-For', from);
  const wrongKey = (from: string) =>
    request(t.url)
      .get('/v1/recetas/listar')
      .set('X-API-Key', 'guessed-key')
      .set('X-API-Secret', 'guessed-secret')
      .set('X-Forwarded-For', from);

  /** Statuses of one request from each address, in order. */
  const statuses = async (send: (from: string) => request.Test, from: string[]) => {
    const seen: number[] = [];
    for (const a of from) seen.push((await send(a)).status);
    return seen;
  };

  // Four addresses of one /64, written as clients write them (compressed, full, mixed case).
  const site = [
    '2001:db8:aa:1::1',
    '2001:0db8:00aa:0001:0000:0000:0000:0002',
    '2001:DB8:AA:1:abcd:ef01:2345:6789',
    '2001:db8:aa:1:ffff::',
  ];

  it('the public page: the fourth address of one /64 is over the budget; the next /64 is not', async () => {
    expect(await statuses(publico, site)).toEqual([404, 404, 404, 429]);
    expect((await publico('2001:db8:aa:2::1')).status).toBe(404);
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4; neighbouring IPv4 addresses apart', async () => {
    expect(
      await statuses(publico, [
        '198.51.100.7',
        '::ffff:198.51.100.7',
        '::FFFF:c633:6407',
        '198.51.100.7',
      ]),
    ).toEqual([404, 404, 404, 429]);
    expect((await publico('198.51.100.8')).status).toBe(404);
  });

  it('the patient routes and failed authentications key the address the same way', async () => {
    const other = ['2001:db8:bb:1::1', '2001:db8:bb:1::2', '2001:db8:bb:1::3', '2001:db8:bb:1::4'];
    expect(await statuses(paciente, other)).toEqual([401, 401, 401, 429]);
    const third = ['2001:db8:cc:1::1', '2001:db8:cc:1::2', '2001:db8:cc:1::3', '2001:db8:cc:1::4'];
    expect(await statuses(wrongKey, third)).toEqual([401, 401, 401, 429]);
    expect((await wrongKey('2001:db8:cc:2::1')).status).toBe(401);
  });
});
