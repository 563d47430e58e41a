import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildCuir } from '../src/cuir/cuir-format.js';
import { cliJson } from './support/cli.js';
import { createClient, TestClient } from './support/clients.js';
import {
  generationBodyFor,
  newCuir,
  postRegistration,
  register,
  registrationBody,
} from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

let seq = 0;
const freshGroupId = () => `${Date.now()}${process.pid}${++seq}`.padStart(25, '7').slice(-25);

const NOT_OWNED = {
  code: 'CUIR_NOT_OWNED',
  message: 'The CUIR was not issued to this client',
  details: [{ field: 'cuir', issue: 'was not issued to this client by POST /v1/cuir/generar' }],
};

/** Contract §3: each client's own CUIR platform id, and CUIRs owned by their first issuee. */
describe('CUIR ownership per client', () => {
  let t: TestApp;
  let a: TestClient;
  let b: TestClient;
  let bLenient: TestClient;

  beforeAll(async () => {
    // No credential cache: a client changed by the tool is seen by the next request.
    t = await startTestApp({ AUTH_CACHE_TTL_MS: '0' });
    a = await createClient(t);
    b = await createClient(t);
    bLenient = await createClient(t, { cuirUniqueness: false });
  });
  afterAll(async () => {
    await t.stop();
  });

  const cuirBody = (groupId = freshGroupId()) => ({
    groupId,
    itemId: '01',
    state: '02',
    prescriptionType: '01',
    medicationType: '02',
  });
  const generate = (c: { headers: Record<string, string> }, body: object) =>
    request(t.url).post('/v1/cuir/generar').set(c.headers).send(body);
  const withoutRequestId = (body: Record<string, unknown>) => ({ ...body, request_id: undefined });
  const components = (groupId: string) => ({
    platform: '0001',
    repository: '0001',
    jurisdiction: '02',
    prescriptionType: '01',
    medicationType: '02',
    groupId,
    itemId: '01',
  });

  it('another client is refused a CUIR issued to the first, whatever its uniqueness policy', async () => {
    const body = cuirBody();
    const issued = await generate(a, body).expect(201);
    for (const other of [b, bLenient]) {
      const res = await generate(other, body).expect(409);
      expect(res.body.error).toEqual({
        code: 'CUIR_ALREADY_ISSUED',
        message: 'This CUIR was already issued to another client',
      });
    }
    // The owner with the policy on still gets its own 409; nothing was recorded for the others.
    await generate(a, body).expect(409);
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM issued_cuirs WHERE cuir = $1', [
        issued.body.data.cuir,
      ]);
    expect(row.n).toBe(1);
  });

  it('the same input twice, uniqueness off, is the same CUIR to the same client', async () => {
    const body = cuirBody();
    const first = await generate(bLenient, body).expect(201);
    const again = await generate(bLenient, body).expect(201);
    expect(again.body.data.cuir).toBe(first.body.data.cuir);
  });

  it("a second client cannot register the first one's CUIR: the same 422 before and after the owner registers", async () => {
    const cuir = (await generate(a, cuirBody()).expect(201)).body.data.cuir as string;
    const before = await register(t, b, registrationBody({ cuir })).expect(422);
    expect(before.body.error).toEqual(NOT_OWNED);
    await register(t, a, registrationBody({ cuir })).expect(201);
    const after = await register(t, b, registrationBody({ cuir })).expect(422);
    expect(withoutRequestId(after.body)).toEqual(withoutRequestId(before.body));
    // With an Idempotency-Key too: the 422 is stored and replayed like any 4xx.
    const key = { 'Idempotency-Key': crypto.randomUUID() };
    const body = registrationBody({ cuir });
    expect((await register(t, b, body, key).expect(422)).body.error.code).toBe('CUIR_NOT_OWNED');
    const replay = await register(t, b, body, key).expect(422);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    ['platform', { platform: '0002' }],
    ['repository', { repository: '0009' }],
  ])('a CUIR with foreign %s digits gets 422 CUIR_NOT_OWNED', async (_what, over) => {
    const cuir = buildCuir({ ...components(freshGroupId()), ...over });
    const res = await register(t, a, registrationBody({ cuir })).expect(422);
    expect(res.body.error).toEqual(NOT_OWNED);
  });

  it('a client with its own platform id registers its CUIRs and not the default platform ones', async () => {
    const own = await createClient(t, { cuirPlatformId: '0042' });
    const issued = (await generate(own, cuirBody()).expect(201)).body.data.cuir as string;
    expect(issued.slice(0, 8)).toBe('00420001');
    await register(t, own, registrationBody({ cuir: issued })).expect(201);
    const res = await register(t, own, registrationBody({ cuir: newCuir() })).expect(422);
    expect(res.body.error).toEqual(NOT_OWNED);
  });

  // Contract §3 (revised): only CUIRs this repository issued to the caller register, and
  // everything generation issued to it does.
  describe('registration takes exactly the CUIRs generation issued to the caller', () => {
    it("a CUIR never generated, with the caller's own platform and repository digits → 422", async () => {
      const cuir = buildCuir(components(freshGroupId()));
      const res = await postRegistration(t, a, registrationBody({ cuir })).expect(422);
      expect(res.body.error).toEqual(NOT_OWNED);
      // Nothing was written, and the refusal is in the event log with its code.
      const rows = await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM recetas WHERE cuir = $1', [cuir]);
      expect(rows[0].n).toBe(0);
      // Once generation issues it, the same registration succeeds.
      await generate(a, generationBodyFor(cuir)).expect(201);
      await postRegistration(t, a, registrationBody({ cuir })).expect(201);
    });

    it.each([
      ['01', '99'],
      ['01', '00'],
      ['02', '01'],
      ['03', '04'],
    ])(
      'with local rules off, type %s subtype %s is issued (201) and its owner registers it (201)',
      async (prescriptionType, medicationType) => {
        const body = { ...cuirBody(), prescriptionType, medicationType };
        const issued = await generate(a, body).expect(201);
        const cuir = issued.body.data.cuir as string;
        expect(issued.body.data.components.type_subtype).toBe(prescriptionType + medicationType);
        const res = await postRegistration(t, a, registrationBody({ cuir })).expect(201);
        expect(res.body.data.cuir).toBe(cuir);
        // It is what it is from then on: verified, listed and dispensable like any other.
        const verified = await request(t.url).get(`/v1/recetas/verificar/${cuir}`).set(a.headers);
        expect(verified.status).toBe(200);
        expect(verified.body.data.cuir).toBe(cuir);
        // Another client still cannot register it.
        const other = await postRegistration(t, b, registrationBody({ cuir })).expect(422);
        expect(other.body.error).toEqual(NOT_OWNED);
      },
    );

    it('a CUIR issued before its client changed platform id still registers', async () => {
      const created = await cliJson<{ id: string; key: string; secret: string }>([
        'clients',
        'create',
        '--name',
        `moved-${Date.now()}`,
        '--scopes',
        'all',
      ]);
      const moved = {
        id: created.id,
        key: created.key,
        secret: created.secret,
        headers: { 'X-API-Key': created.key, 'X-API-Secret': created.secret },
      };
      const before = (await generate(moved, cuirBody()).expect(201)).body.data.cuir as string;
      expect(before.slice(0, 4)).toBe('0001');
      await cliJson(['clients', 'update', created.id, '--platform-id', '0077']);
      const after = (await generate(moved, cuirBody()).expect(201)).body.data.cuir as string;
      expect(after.slice(0, 4)).toBe('0077');
      await postRegistration(t, moved, registrationBody({ cuir: before })).expect(201);
      await postRegistration(t, moved, registrationBody({ cuir: after })).expect(201);
    }, 60_000); // two runs of the credentials tool
  });

  it('the credentials tool sets (--platform-id), shows and changes the platform id', async () => {
    const created = await cliJson<{ id: string; key: string; secret: string }>([
      'clients',
      'create',
      '--name',
      `platform-${Date.now()}`,
      '--scopes',
      'all',
      '--platform-id',
      '0042',
    ]);
    expect(created).toMatchObject({ cuir_platform_id: '0042' });
    const headers = { headers: { 'X-API-Key': created.key, 'X-API-Secret': created.secret } };
    const first = await generate(headers, cuirBody()).expect(201);
    expect(first.body.data.cuir).toMatch(/^00420001/);
    expect(first.body.data.components.platform).toBe('0042');

    const listed = await cliJson<{ clients: Array<{ id: string; cuir_platform_id: unknown }> }>([
      'clients',
      'list',
    ]);
    expect(listed.clients.find((c) => c.id === created.id)?.cuir_platform_id).toBe('0042');

    const updated = await cliJson(['clients', 'update', created.id, '--platform-id', '0043']);
    expect(updated).toMatchObject({ cuir_platform_id: '0043' });
    const res = await generate(headers, cuirBody()).expect(201);
    expect(res.body.data.cuir).toMatch(/^00430001/);
    const cleared = await cliJson(['clients', 'update', created.id, '--platform-id', 'none']);
    expect(cleared).toMatchObject({ cuir_platform_id: null });
  });
});
