import request from 'supertest';
import { createClient, TestClient } from './support/clients.js';
import { startTestApp, TestApp } from './support/test-app.js';

let seq = 0;
/** A groupId no other test uses (25 digits). */
const freshGroupId = () => `${Date.now()}${process.pid}${++seq}`.padStart(25, '0').slice(-25);

describe('POST /v1/cuir/generar', () => {
  let t: TestApp;
  let unique: TestClient;
  let lenient: TestClient;
  let strict: TestClient;

  beforeAll(async () => {
    t = await startTestApp({ CUIR_PLATFORM_ID: '0042', CUIR_REPOSITORY_ID: '0007' });
    unique = await createClient(t, { scopes: ['cuir:write'] });
    lenient = await createClient(t, { scopes: ['cuir:write'], cuirUniqueness: false });
    strict = await createClient(t, {
      scopes: ['cuir:write'],
      cuirRules: true,
      cuirUniqueness: false,
    });
  });
  afterAll(async () => {
    await t.stop();
  });

  const body = (over: Record<string, unknown> = {}) => ({
    groupId: freshGroupId(),
    itemId: '01',
    state: '02',
    prescriptionType: '01',
    medicationType: '02',
    ...over,
  });
  const generate = (c: TestClient, b: unknown) =>
    request(t.url)
      .post('/v1/cuir/generar')
      .set(c.headers)
      .send(b as object);

  it('builds the 41-digit CUIR from configuration and the request, components in order', async () => {
    const groupId = freshGroupId();
    const res = await generate(
      unique,
      body({ groupId, itemId: '07', state: '14', prescriptionType: '03', medicationType: '00' }),
    ).expect(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.cuir).toBe(`0042000714` + `0300` + groupId + '07');
    expect(res.body.data.cuir).toHaveLength(41);
    expect(Object.keys(res.body.data.components)).toEqual([
      'platform',
      'repository',
      'jurisdiction',
      'type_subtype',
      'groupId',
      'itemId',
    ]);
    expect(res.body.data.components).toEqual({
      platform: '0042',
      repository: '0007',
      jurisdiction: '14',
      type_subtype: '0300',
      groupId,
      itemId: '07',
    });
  });

  it.each([
    ['groupId of 23 digits', { groupId: '1'.repeat(23) }, 'groupId'],
    ['groupId of 26 digits', { groupId: '1'.repeat(26) }, 'groupId'],
    ['groupId with letters', { groupId: 'A'.repeat(25) }, 'groupId'],
    ['groupId as a number', { groupId: 1e24 }, 'groupId'],
    ['itemId 00', { itemId: '00' }, 'itemId'],
    ['itemId of 3 digits', { itemId: '001' }, 'itemId'],
    ['unknown jurisdiction', { state: '03' }, 'state'],
    ['unknown type', { prescriptionType: '04' }, 'prescriptionType'],
    ['medicationType of 1 digit', { medicationType: '2' }, 'medicationType'],
  ])('answers 400 for %s, naming the field', async (_name, over, field) => {
    const res = await generate(unique, body(over)).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  it.each(['groupId', 'itemId', 'state', 'prescriptionType', 'medicationType'])(
    'names a missing %s in details',
    async (field) => {
      const b: Record<string, unknown> = body();
      delete b[field];
      const res = await generate(unique, b).expect(400);
      expect(res.body.error.details).toEqual([{ field, issue: 'is required' }]);
    },
  );

  it('refuses an unknown field with UNKNOWN_FIELD', async () => {
    const res = await generate(unique, body({ extra: 'x' })).expect(400);
    expect(res.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field: 'extra' }] });
  });

  it('refuses an unknown query parameter with UNKNOWN_FIELD', async () => {
    const res = await request(t.url)
      .post('/v1/cuir/generar?debug=1')
      .set(unique.headers)
      .send(body())
      .expect(400);
    expect(res.body.error).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field: 'debug' }] });
  });

  it('with the uniqueness policy on, a second request for the same groupId+itemId is 409', async () => {
    const b = body();
    await generate(unique, b).expect(201);
    const res = await generate(unique, { ...b, state: '06' }).expect(409);
    expect(res.body.error.code).toBe('CUIR_ALREADY_ISSUED');
    await generate(unique, { ...b, itemId: '02' }).expect(201);
  });

  it('with the policy on, 10 concurrent identical requests give exactly one 201', async () => {
    const b = body();
    const answers = await Promise.all(Array.from({ length: 10 }, () => generate(unique, b)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
  });

  it('with the policy off, the same input returns the same CUIR again', async () => {
    const b = body();
    const first = await generate(lenient, b).expect(201);
    const second = await generate(lenient, b).expect(201);
    expect(second.body.data.cuir).toBe(first.body.data.cuir);
  });

  it('local rules off: any 2-digit subtype is accepted; on: an incompatible pair is 422', async () => {
    await generate(lenient, body({ prescriptionType: '02', medicationType: '07' })).expect(201);
    const res = await generate(
      strict,
      body({ prescriptionType: '02', medicationType: '07' }),
    ).expect(422);
    expect(res.body.error.code).toBe('CUIR_RULES_VIOLATED');
    expect(res.body.error.details[0].field).toBe('medicationType');
    await generate(strict, body({ prescriptionType: '01', medicationType: '04' })).expect(201);
    await generate(strict, body({ prescriptionType: '01', medicationType: '00' })).expect(422);
  });
});
