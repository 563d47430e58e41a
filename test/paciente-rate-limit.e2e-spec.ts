import request from 'supertest';
import { cuitCheckDigit } from '../src/paciente/cuil.js';
import { sandboxCitizenToken } from './support/citizen-tokens.js';
import { createClient } from './support/clients.js';
import { register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** The fixture patient (contract §8): DNI 30111222. */
const ANA = '27301112225';
/** A valid CUIL of another citizen (DNI 25111222). */
const OTHER = `20${'25111222'}${cuitCheckDigit(`20${'25111222'}`)}`;

const paciente = (t: TestApp, cuir: string, token: string) =>
  request(t.url).get(`/v1/paciente/recetas/${cuir}`).set('Authorization', `Bearer ${token}`);

const expectLimited = (res: request.Response, limit: number) => {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('RATE_LIMITED');
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  expect(res.headers['ratelimit-remaining']).toBe('0');
};

describe('the patient routes are rate limited per citizen (contract §8)', () => {
  let t: TestApp;
  let cuir: string;

  beforeAll(async () => {
    t = await startTestApp({ PACIENTE_POR_MINUTO: '3', PACIENTE_POR_IP_POR_MINUTO: '100' });
    const body = registrationBody();
    cuir = body.cuir as string;
    await register(t, await createClient(t), body).expect(201);
  });
  afterAll(() => t?.stop());

  it('answers 429 with Retry-After past PACIENTE_POR_MINUTO; another citizen is unaffected', async () => {
    const ana = await sandboxCitizenToken(t.sandboxUrl as string, ANA);
    for (const left of ['2', '1', '0']) {
      const res = await paciente(t, cuir, ana).expect(200);
      // The citizen's budget is nearer its end than the address's: it is the one shown.
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(left);
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    expectLimited(await paciente(t, cuir, ana), 3);
    // The document shares the budget; a new token for the same CUIL does not reset it.
    const again = await sandboxCitizenToken(t.sandboxUrl as string, ANA);
    expectLimited(
      await request(t.url)
        .get(`/v1/paciente/recetas/${cuir}/documento`)
        .set('Authorization', `Bearer ${again}`),
      3,
    );
    // Another citizen from the same address: its own budget (404: not theirs, but not limited).
    const other = await paciente(t, cuir, await sandboxCitizenToken(t.sandboxUrl as string, OTHER));
    expect(other.status).toBe(404);
    expect(other.headers['ratelimit-limit']).toBe('3');
    expect(other.headers['ratelimit-remaining']).toBe('2');
  });
});

describe('the patient routes are rate limited per client address, bad tokens included', () => {
  let t: TestApp;
  let cuir: string;

  beforeAll(async () => {
    t = await startTestApp({ PACIENTE_POR_MINUTO: '100', PACIENTE_POR_IP_POR_MINUTO: '5' });
    const body = registrationBody();
    cuir = body.cuir as string;
    await register(t, await createClient(t), body).expect(201);
  });
  afterAll(() => t?.stop());

  it('throttles token guessing: 401 up to PACIENTE_POR_IP_POR_MINUTO attempts, then 429', async () => {
    for (const left of ['4', '3', '2', '1', '0']) {
      const res = await paciente(t, cuir, `not.a.token${left}`).expect(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(left);
    }
    expectLimited(await paciente(t, cuir, 'not.a.token'), 5);
    // No header at all counts too, and a valid token from this address waits as well.
    expectLimited(await request(t.url).get(`/v1/paciente/recetas/${cuir}`), 5);
    const ana = await sandboxCitizenToken(t.sandboxUrl as string, ANA);
    expectLimited(await paciente(t, cuir, ana), 5);
  });
});
