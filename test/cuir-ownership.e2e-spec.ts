import request from 'supertest';
import { DataSource } from 'typeorm';
import { buildCuir } from '../src/cuir/cuir-format.js';
import { cliJson } from './support/cli.js';
import { createClient, TestClient } from './support/clients.js';
import { newCuir, register, registrationBody } from './support/recetas.js';
import { startTestApp, TestApp } from './support/test-app.js';

let seq = 0;
const freshGroupId = () => `${Date.now()}${process.pid}${++seq}`.padStart(25, '7').slice(-25);

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
    expect(before.body.error).toEqual({
      code: 'CUIR_NOT_OWNED',
      message: 'The CUIR belongs to another platform, repository or client',
      details: [{ field: 'cuir', issue: 'was issued to another client' }],
    });
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
    ['platform', { platform: '0002' }, 'platform digits 0002 are not'],
    ['repository', { repository: '0009' }, 'repository digits 0009 are not'],
  ])('a CUIR with foreign %s digits gets 422 CUIR_NOT_OWNED', async (_what, over, issue) => {
    const cuir = buildCuir({
      platform: '0001',
      repository: '0001',
      jurisdiction: '02',
      prescriptionType: '01',
      medicationType: '02',
      groupId: freshGroupId(),
      itemId: '01',
      ...over,
    });
    const res = await register(t, a, registrationBody({ cuir })).expect(422);
    expect(res.body.error.code).toBe('CUIR_NOT_OWNED');
    expect(res.body.error.details[0].issue).toContain(issue);
  });

  it('a client with its own platform id registers its CUIRs and not the default platform ones', async () => {
    const own = await createClient(t, { cuirPlatformId: '0042' });
    const issued = (await generate(own, cuirBody()).expect(201)).body.data.cuir as string;
    expect(issued.slice(0, 8)).toBe('00420001');
    await register(t, own, registrationBody({ cuir: issued })).expect(201);
    const res = await register(t, own, registrationBody({ cuir: newCuir() })).expect(422);
    expect(res.body.error.details[0].issue).toContain("platform digits 0001 are not this client's");
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
