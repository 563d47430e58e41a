import { createHmac } from 'node:crypto';
import { exportSPKI } from 'jose';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { cuitCheckDigit } from '../src/paciente/cuil.js';
import {
  AUDIENCE,
  b64,
  citizenTokenFixture,
  ISSUER,
  sandboxCitizenToken,
} from './support/citizen-tokens.js';
import { createClient, TestClient } from './support/clients.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** The fixture patient (contract §8): Ana María Fernández, DNI 30111222. */
const ANA = '27301112225';
/** A valid CUIL of another citizen (DNI 25111222). */
const OTHER = `20${'25111222'}${cuitCheckDigit(`20${'25111222'}`)}`;

const paciente = (t: TestApp, path: string, token?: string) => {
  const r = request(t.url).get(`/v1/paciente/recetas/${path}`);
  return token === undefined ? r : r.set('Authorization', `Bearer ${token}`);
};

describe("the patient's access with the sandbox as Mi Argentina (contract §8)", () => {
  let t: TestApp;
  let owner: TestClient;
  let cuir: string;
  let id: string;

  const token = (cuil: string, ttl?: number) =>
    sandboxCitizenToken(t.sandboxUrl as string, cuil, ttl);

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createClient(t);
    const body = registrationBody({
      items: [
        { nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2 },
        { nombre: 'Amoxicilina 500 mg cápsulas', cantidad: 1 },
      ],
    });
    cuir = body.cuir as string;
    id = (await register(t, owner, body).expect(201)).body.data.id_transaccion as string;
  });
  afterAll(() => t?.stop());

  it('shows the fixture patient her prescription, with its state, validity and document link', async () => {
    const res = await paciente(t, cuir, await token(ANA)).expect(200);
    expect(res.body.data).toEqual({
      cuir,
      estado_receta: 'VIGENTE',
      fecha_creacion: expect.any(String),
      vigencia_desde: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      vigencia_hasta: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      matricula_profesional: '123456',
      items: [
        // SPEC 9.2's members when registered (none here); sustituible always said.
        { nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2, sustituible: true, dispensado: 0 },
        { nombre: 'Amoxicilina 500 mg cápsulas', cantidad: 1, sustituible: true, dispensado: 0 },
      ],
      documento_url: expect.stringMatching(new RegExp(`/v1/paciente/recetas/${cuir}/documento$`)),
    });
    // Never the patient's document number or anything of another client.
    expect(JSON.stringify(res.body)).not.toContain('30111222');
  });

  it("answers another citizen's CUIR exactly like an unknown one", async () => {
    const theirs = await paciente(t, cuir, await token(OTHER)).expect(404);
    const unknown = await paciente(t, newCuir(), await token(ANA)).expect(404);
    expect(theirs.body.error).toEqual(unknown.body.error);
    expect(Object.keys(theirs.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
  });

  it('serves her printable prescription with the same token', async () => {
    const res = await paciente(t, `${cuir}/documento`, await token(ANA))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect((res.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    await paciente(t, `${cuir}/documento`, await token(OTHER)).expect(404);
  });

  it('refuses API keys: the patient routes take the citizen token only', async () => {
    const res = await paciente(t, cuir).set(owner.headers).expect(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    // And a token living longer than 300 s is refused too.
    await paciente(t, cuir, await token(ANA, 301)).expect(401);
  });

  it('writes every access and download to the event log, refused ones too, as the patient', async () => {
    const db = t.app.get(DataSource);
    const events: Array<{ tipo: string; actor: string; resultado: string }> = await db.query(
      `SELECT tipo, actor, resultado FROM auditoria_eventos
        WHERE id_transaccion = $1 AND actor = 'paciente' ORDER BY id`,
      [id],
    );
    expect(events).toEqual(
      expect.arrayContaining([
        { tipo: 'acceso_paciente', actor: 'paciente', resultado: 'ok' },
        { tipo: 'acceso_paciente', actor: 'paciente', resultado: 'NOT_FOUND' },
        { tipo: 'documento', actor: 'paciente', resultado: 'ok' },
      ]),
    );
  });
});

describe("the patient's token is checked strictly (contract §8)", () => {
  const f = citizenTokenFixture();
  let t: TestApp;
  let cuir: string;

  beforeAll(async () => {
    t = await startTestApp({
      PACIENTE_JWKS_URL: f.server.url,
      PACIENTE_JWT_ISSUER: ISSUER,
      PACIENTE_JWT_AUDIENCE: AUDIENCE,
    });
    const owner = await createClient(t);
    const body = registrationBody();
    cuir = body.cuir as string;
    await register(t, owner, body).expect(201);
  });
  afterAll(() => t?.stop());

  const valid = () => f.sign(f.claims({ cuil: ANA }));

  it('accepts a token of the issuer, RS256 or RS512', async () => {
    await paciente(t, cuir, await valid()).expect(200);
    await paciente(t, cuir, await f.sign(f.claims({ cuil: ANA }), f.keys.rs512)).expect(200);
  });

  it.each([
    [
      'alg none',
      () => Promise.resolve(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(f.claims({ cuil: ANA }))}.`),
    ],
    [
      'HS256 signed with the public key',
      async () => {
        const secret = await exportSPKI(f.keys.rs256.publicKey);
        const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: f.keys.rs256.kid })}.${b64(f.claims({ cuil: ANA }))}`;
        return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      },
    ],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = (await f.sign(f.claims({ cuil: OTHER }))).split('.');
        return `${header}.${b64(f.claims({ cuil: ANA }))}.${signature}`;
      },
    ],
    ['an unknown kid', () => f.sign(f.claims({ cuil: ANA }), f.keys.rs256, 'k-unknown')],
    [
      'an expired token',
      () => f.sign(f.claims({ cuil: ANA, iat: f.nowS() - 400, exp: f.nowS() - 100 })),
    ],
    ['a lifetime over 300 s', () => f.sign(f.claims({ cuil: ANA, exp: f.nowS() + 301 }))],
    ['a wrong issuer', () => f.sign(f.claims({ cuil: ANA, iss: 'https://evil.example' }))],
    ['a wrong audience', () => f.sign(f.claims({ cuil: ANA, aud: 'another-api' }))],
  ])('refuses %s with 401', async (_what, make) => {
    const res = await paciente(t, cuir, await make()).expect(401);
    expect(res.body.error).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Invalid or expired citizen token',
    });
  });
});
