import { SchedulerRegistry } from '@nestjs/schedule';
import { DomainError } from '../common/errors/domain-error.js';
import type { RequestFingerprint } from './canonical-hash.js';
import { FakeIdempotencyRepository } from '../../test/support/fakes/idempotency.fakes.js';
import { buildService, fake } from '../../test/support/service-harness.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

const CLIENT = '00000000-0000-4000-8000-00000000000a';
const KEY = '6f1c2e9a-1111-4aaa-8bbb-123456789abc';
/** A request's fingerprint `hash`; `legacy-<hash>`: the bare SHA-256 it was stored with before. */
const fp = (hash: string): RequestFingerprint => ({ hash, legacy: () => `legacy-${hash}` });
const ANSWER = { status: 201, text: '{"success":true,"data":{"id_transaccion":"7"}}' };

async function setup() {
  const keys = new FakeIdempotencyRepository();
  const { service } = await buildService(IdempotencyService, [
    fake(IdempotencyRepository, keys as unknown as IdempotencyRepository),
    SchedulerRegistry,
  ]);
  return { service, keys };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    (v) => v,
    (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
  );

describe('Idempotency-Key outcomes (contract §3), without the app', () => {
  it('a new key is this request’s; the same request later gets the stored answer', async () => {
    const { service } = await setup();
    expect(await service.begin(CLIENT, KEY, fp('h1'))).toBeNull();
    await service.finish(CLIENT, KEY, ANSWER);
    expect(await service.begin(CLIENT, KEY, fp('h1'))).toEqual(ANSWER);
  });

  it('the same key with another request is 409 REUSED, answered or not', async () => {
    const { service } = await setup();
    await service.begin(CLIENT, KEY, fp('h1'));
    expect(await codeOf(service.begin(CLIENT, KEY, fp('h2')))).toBe('IDEMPOTENCY_KEY_REUSED');
    await service.finish(CLIENT, KEY, ANSWER);
    expect(await codeOf(service.begin(CLIENT, KEY, fp('h2')))).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a key still being processed is 409 IN_PROGRESS, until its holder’s lease runs out', async () => {
    const { service, keys } = await setup();
    await service.begin(CLIENT, KEY, fp('h1'));
    expect(await codeOf(service.begin(CLIENT, KEY, fp('h1')))).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    keys.now += 61_000; // the holder crashed: its 60 s lease is over
    expect(await service.begin(CLIENT, KEY, fp('h1'))).toBeNull();
  });

  it('a 5xx frees the key, so a retry runs again', async () => {
    const { service } = await setup();
    await service.begin(CLIENT, KEY, fp('h1'));
    await service.abandon(CLIENT, KEY);
    expect(await service.begin(CLIENT, KEY, fp('h1'))).toBeNull();
  });

  it('an answer older than 24 h is forgotten: the key is new again', async () => {
    const { service, keys } = await setup();
    await service.begin(CLIENT, KEY, fp('h1'));
    await service.finish(CLIENT, KEY, ANSWER);
    keys.now += 24 * 3600_000 + 1;
    expect(await service.begin(CLIENT, KEY, fp('h2'))).toBeNull();
  });

  it('keys are per client', async () => {
    const { service } = await setup();
    await service.begin(CLIENT, KEY, fp('h1'));
    expect(await service.begin('00000000-0000-4000-8000-00000000000b', KEY, fp('h2'))).toBeNull();
  });

  it('a request whose write lost the key gets the winner’s answer, or 409 while it runs', async () => {
    const { service } = await setup();
    await service.begin(CLIENT, KEY, fp('h1'));
    expect(await codeOf(service.afterRefusal(CLIENT, KEY, fp('h1')))).toBe(
      'IDEMPOTENCY_KEY_IN_PROGRESS',
    );
    await service.finish(CLIENT, KEY, ANSWER);
    expect(await service.afterRefusal(CLIENT, KEY, fp('h1'))).toEqual(ANSWER);
  });

  it('a key stored before the fingerprint had a key still replays, and is upgraded to the keyed one', async () => {
    const { service, keys } = await setup();
    await service.begin(CLIENT, KEY, fp('old'));
    await service.finish(CLIENT, KEY, ANSWER);
    keys.keys.get(`${CLIENT}/${KEY}`)!.requestHash = 'legacy-h1';
    expect(await codeOf(service.begin(CLIENT, KEY, fp('h2')))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(keys.keys.get(`${CLIENT}/${KEY}`)!.requestHash).toBe('legacy-h1');
    expect(await service.begin(CLIENT, KEY, fp('h1'))).toEqual(ANSWER);
    expect(keys.keys.get(`${CLIENT}/${KEY}`)!.requestHash).toBe('h1');
    expect(await service.afterRefusal(CLIENT, KEY, fp('h1'))).toEqual(ANSWER);
  });

  it('accepts only a UUID as the key, lower-cased', async () => {
    const { service } = await setup();
    expect(service.parseKey(KEY.toUpperCase())).toBe(KEY);
    expect(() => service.parseKey('not-a-uuid')).toThrow(DomainError);
  });
});
