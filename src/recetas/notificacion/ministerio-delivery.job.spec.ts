import { BrokenCircuitError } from 'cockatiel';
import { DomainError } from '../../common/errors/domain-error.js';
import { UpstreamFailure } from '../../common/resilience/upstream-failure.js';
import { Transactions } from '../../database/transactions.js';
import {
  MinisterioClient,
  MinisterioReceipt,
  MinisterioRejection,
} from '../../ministerio/ministerio.client.js';
import { JobQueue } from '../../queue/job-queue.js';
import { FakeJobQueue, FakeTransactions } from '../../../test/support/fakes/plumbing.fakes.js';
import { ScriptedMinisterio } from '../../../test/support/fakes/ministerio.fakes.js';
import { FakeRecetasRepository } from '../../../test/support/fakes/recetas.fakes.js';
import { buildService, fake } from '../../../test/support/service-harness.js';
import { RecetasRepository } from '../recetas.repository.js';
import { EnlacesPublicos } from '../../publico/enlaces-publicos.service.js';
import { retryDelayMs } from './delivery-outcomes.js';
import { MinisterioDeliveryJob } from './ministerio-delivery.job.js';
import { RecetaWebhooksService } from './receta-webhooks.service.js';

class RecordedWebhooks implements Pick<RecetaWebhooksService, 'enqueueFinal'> {
  readonly finals: string[] = [];
  enqueueFinal = (_r: unknown, o: { estado: string }) => {
    this.finals.push(o.estado);
    return Promise.resolve();
  };
}

const unavailable = (cause: unknown) =>
  new DomainError('UPSTREAM_UNAVAILABLE', 'The ministerio service is unavailable', undefined, {
    cause,
  });

async function setup(script: Array<MinisterioReceipt | Error>, env: Record<string, string> = {}) {
  const recetas = new FakeRecetasRepository();
  const queue = new FakeJobQueue();
  const events = new RecordedWebhooks();
  const ministerio = new ScriptedMinisterio(script);
  const { service: job } = await buildService(
    MinisterioDeliveryJob,
    [
      fake(RecetasRepository, recetas as unknown as RecetasRepository),
      fake(Transactions, new FakeTransactions() as unknown as Transactions),
      fake(MinisterioClient, ministerio),
      fake(JobQueue, queue as unknown as JobQueue),
      fake(RecetaWebhooksService, events as unknown as RecetaWebhooksService),
      EnlacesPublicos,
    ],
    { MINISTRY_MAX_ATTEMPTS: '3', MINISTRY_RETRY_DELAY_SECONDS: '30', ...env },
  );
  return { job, recetas, queue, events, ministerio, receta: recetas.add() };
}

describe('the ministry delivery (contract §4 state machine), without the app', () => {
  it('PENDING → COMPLETED on a receipt, with the reference, its history and the owner told', async () => {
    const s = await setup([{ ref: 'MS-1', duplicate: false }]);
    await s.job.attempt({ id_transaccion: s.receta.id_transaccion, attempt: 1 });
    expect(s.recetas.rows.get('1')).toMatchObject({
      estado: 'COMPLETED',
      intentos: 1,
      ministerio_ref: 'MS-1',
    });
    expect(s.recetas.historial.get('1')?.map((h) => [h.evento, h.resultado])).toEqual([
      ['INTENTO', 'ok'],
      ['ESTADO', 'completed'],
    ]);
    expect(s.events.finals).toEqual(['COMPLETED']);
    expect(s.queue.enqueued).toEqual([]);
    // The public verification link (contract §9): the CUIR and its signature.
    expect(s.ministerio.delivered[0].url_verificacion).toMatch(
      /\/r\/0001000102[0-9]{31}\?f=[A-Za-z0-9_-]{22}$/,
    );
  });

  it('PENDING → FAILED when the ministry rejects the pointer for good', async () => {
    const s = await setup([new MinisterioRejection('400', 'CUIR inválido')]);
    await s.job.attempt({ id_transaccion: '1', attempt: 1 });
    expect(s.recetas.rows.get('1')).toMatchObject({ estado: 'FAILED', intentos: 1 });
    expect(s.recetas.rows.get('1')?.failure_reason).toMatch(/rejected by the ministry: 400/);
    expect(s.events.finals).toEqual(['FAILED']);
  });

  it('stays PENDING after a transient failure and schedules the next attempt with backoff', async () => {
    const s = await setup([unavailable(new UpstreamFailure('ministerio', 'HTTP 503', true))]);
    const before = Date.now();
    await s.job.attempt({ id_transaccion: '1', attempt: 1 });
    const row = s.recetas.rows.get('1')!;
    expect(row).toMatchObject({ estado: 'PENDING', intentos: 1 });
    const [next] = s.queue.enqueued;
    expect(next).toMatchObject({ data: { id_transaccion: '1', attempt: 2 } });
    const delay = next.opts.startAfter!.getTime() - before;
    expect(delay).toBeGreaterThanOrEqual(24_000); // 30 s ± 20 %
    expect(delay).toBeLessThanOrEqual(36_500);
    expect(s.recetas.historial.get('1')?.[0].detalle).toMatch(/^HTTP 503; next attempt at/);
    expect(s.events.finals).toEqual([]);
  });

  it('ends FAILED once the attempts are spent', async () => {
    const s = await setup([unavailable(new UpstreamFailure('ministerio', 'timeout', true))]);
    s.recetas.rows.get('1')!.intentos = 2;
    await s.job.attempt({ id_transaccion: '1', attempt: 3 });
    expect(s.recetas.rows.get('1')).toMatchObject({ estado: 'FAILED', intentos: 3 });
    expect(s.recetas.rows.get('1')?.failure_reason).toMatch(/retries exhausted after 3 attempts/);
    expect(s.queue.enqueued).toEqual([]);
  });

  it('does not spend an attempt the circuit breaker stopped: the same attempt waits for the breaker', async () => {
    const s = await setup([unavailable(new BrokenCircuitError())], {
      REGISTRY_BREAKER_HALF_OPEN_MS: '10000',
    });
    const before = Date.now();
    await s.job.attempt({ id_transaccion: '1', attempt: 1 });
    expect(s.recetas.rows.get('1')).toMatchObject({ estado: 'PENDING', intentos: 0 });
    expect(s.recetas.historial.get('1')).toBeUndefined();
    const [again] = s.queue.enqueued;
    expect(again.data).toEqual({ id_transaccion: '1', attempt: 1 });
    expect(again.opts.startAfter!.getTime() - before).toBeGreaterThanOrEqual(10_000);
  });

  it('does nothing for a job whose attempt was recorded already (a repeated delivery after a crash)', async () => {
    const s = await setup([]);
    s.recetas.rows.get('1')!.intentos = 1;
    await s.job.attempt({ id_transaccion: '1', attempt: 1 });
    expect(s.ministerio.delivered).toEqual([]);
    expect(s.recetas.rows.get('1')).toMatchObject({ estado: 'PENDING', intentos: 1 });
  });

  it('completes without a delivery when the prescription type is not reported', async () => {
    const s = await setup([], { MINISTRY_NOTIFY_TYPES: '02,03' });
    await s.job.attempt({ id_transaccion: '1', attempt: 1 });
    expect(s.ministerio.delivered).toEqual([]);
    expect(s.recetas.rows.get('1')).toMatchObject({ estado: 'COMPLETED', intentos: 0 });
    expect(s.recetas.historial.get('1')?.[0]).toMatchObject({
      evento: 'NOTIFICACION_NO_REQUERIDA',
      resultado: 'not_required',
    });
  });

  it('writes nothing when another worker recorded a newer outcome meanwhile (the guard)', async () => {
    const s = await setup([unavailable(new UpstreamFailure('ministerio', 'HTTP 502', true))]);
    s.recetas.applyOutcome = () => Promise.resolve(false);
    await s.job.attempt({ id_transaccion: '1', attempt: 1 });
    expect(s.recetas.historial.get('1')).toBeUndefined();
    expect(s.queue.enqueued).toEqual([]);
  });

  it("hands a cancellation's job (kind anulacion) to its notice, whose follow-up stays on this queue", async () => {
    const s = await setup([unavailable(new UpstreamFailure('ministerio', 'HTTP 503', true))]);
    Object.assign(s.recetas.rows.get('1')!, {
      estado: 'PENDING',
      anulada_at: new Date(),
      motivo_anulacion: 'Error',
      anulacion_estado: 'PENDING',
    });
    const data = { id_transaccion: '1', attempt: 1, kind: 'anulacion' as const };
    await s.job.handle({ data } as unknown as Parameters<typeof s.job.handle>[0]);
    // The pointer is still PENDING: the notice waits, on the pointer's own queue.
    expect(s.ministerio.delivered).toEqual([]);
    expect(s.ministerio.cancelled).toEqual([]);
    expect(s.queue.enqueued).toEqual([
      { job: 'MinisterioDeliveryJob', data, opts: { startAfter: expect.any(Date) } },
    ]);
  });
});

describe('retryDelayMs', () => {
  it('doubles the base delay after each failed attempt, with ±20 % jitter, up to the cap', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4].map((n) => retryDelayMs(30, n, Infinity, mid))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect(retryDelayMs(30, 10, 3600, mid)).toBe(3_600_000);
    expect(retryDelayMs(30, 1, 3600, () => 0)).toBe(24_000);
    expect(retryDelayMs(30, 1, 3600, () => 1)).toBe(36_000);
  });
});
