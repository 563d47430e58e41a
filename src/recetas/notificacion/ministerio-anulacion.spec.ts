import { BrokenCircuitError } from 'cockatiel';
import { DomainError } from '../../common/errors/domain-error.js';
import { UpstreamFailure } from '../../common/resilience/upstream-failure.js';
import { Transactions } from '../../database/transactions.js';
import {
  MinisterioClient,
  MinisterioReceipt,
  MinisterioRejection,
} from '../../ministerio/ministerio.client.js';
import { ScriptedMinisterio } from '../../../test/support/fakes/ministerio.fakes.js';
import { JobQueue } from '../../queue/job-queue.js';
import { EnlacesPublicos } from '../../publico/enlaces-publicos.service.js';
import { FakeJobQueue, FakeTransactions } from '../../../test/support/fakes/plumbing.fakes.js';
import { FakeRecetasRepository } from '../../../test/support/fakes/recetas.fakes.js';
import { buildService, fake } from '../../../test/support/service-harness.js';
import type { RecetaEntity } from '../entities/receta.entity.js';
import { RecetasRepository } from '../recetas.repository.js';
import { MinisterioDeliveryJob } from './ministerio-delivery.job.js';
import type { NotificationJob } from './ministerio-delivery.sql.js';
import { RecetaWebhooksService } from './receta-webhooks.service.js';

const unavailable = (cause: unknown) =>
  new DomainError('UPSTREAM_UNAVAILABLE', 'The ministerio service is unavailable', undefined, {
    cause,
  });

/** A cancelled prescription whose pointer the ministry holds (COMPLETED), unless `over` says otherwise. */
async function setup(script: Array<MinisterioReceipt | Error>, over: Partial<RecetaEntity> = {}) {
  const recetas = new FakeRecetasRepository();
  const ministerio = new ScriptedMinisterio(script);
  const queue = new FakeJobQueue();
  const { service } = await buildService(
    MinisterioDeliveryJob,
    [
      fake(RecetasRepository, recetas as unknown as RecetasRepository),
      fake(Transactions, new FakeTransactions() as unknown as Transactions),
      fake(MinisterioClient, ministerio),
      fake(JobQueue, queue as unknown as JobQueue),
      fake(RecetaWebhooksService, {} as RecetaWebhooksService),
      EnlacesPublicos,
    ],
    {
      MINISTRY_MAX_ATTEMPTS: '3',
      MINISTRY_RETRY_DELAY_SECONDS: '30',
      REGISTRY_BREAKER_HALF_OPEN_MS: '10000',
    },
  );
  recetas.add({
    estado: 'COMPLETED',
    ministerio_ref: 'PTR-000001',
    anulada_at: new Date(),
    motivo_anulacion: 'Error en la dosis',
    anulacion_estado: 'PENDING',
    ...over,
  });
  const attempt = (n = 1) => service.anular({ id_transaccion: '1', attempt: n, kind: 'anulacion' });
  const history = () => (recetas.historial.get('1') ?? []).map((h) => [h.evento, h.resultado]);
  return {
    recetas,
    ministerio,
    attempt,
    history,
    row: () => recetas.rows.get('1')!,
    /** The jobs it queued on the ministry's queue: the same attempt later, or the next one. */
    get scheduled() {
      return queue.enqueued.map((e) => ({
        job: e.data as NotificationJob,
        startAfter: e.opts.startAfter!,
      }));
    },
  };
}

describe("the ministry's notice of a cancellation (contract §7), without the app", () => {
  it('tells the ministry the CUIR, the reason and when; COMPLETED with its history', async () => {
    const s = await setup([{ ref: 'PTR-000001', duplicate: false }]);
    await s.attempt();
    expect(s.ministerio.cancelled).toEqual([
      expect.objectContaining({
        cuir: s.row().cuir,
        id_transaccion: '1',
        motivo: 'Error en la dosis',
      }),
    ]);
    expect(s.row()).toMatchObject({
      anulacion_estado: 'COMPLETED',
      anulacion_intentos: 1,
      estado: 'COMPLETED',
    });
    expect(s.history()).toEqual([
      ['ANULACION_INTENTO', 'ok'],
      ['ANULACION_INFORMADA', 'completed'],
    ]);
  });

  it('waits for a pointer still PENDING: the same attempt later, no call, nothing spent', async () => {
    const next = new Date(Date.now() + 120_000);
    const s = await setup([], {
      estado: 'PENDING',
      ministerio_ref: null,
      proximo_intento_at: next,
    });
    await s.attempt();
    expect(s.ministerio.cancelled).toEqual([]);
    expect(s.row()).toMatchObject({ anulacion_estado: 'PENDING', anulacion_intentos: 0 });
    expect(s.history()).toEqual([]);
    expect(s.scheduled).toHaveLength(1);
    expect(s.scheduled[0].job).toEqual({ id_transaccion: '1', attempt: 1, kind: 'anulacion' });
    expect(s.scheduled[0].startAfter.getTime()).toBeGreaterThan(next.getTime());
  });

  it('nothing to tell when the pointer ended FAILED (recorded in history)', async () => {
    const s = await setup([], { estado: 'FAILED', ministerio_ref: null });
    await s.attempt();
    expect(s.ministerio.cancelled).toEqual([]);
    expect(s.row().anulacion_estado).toBe('NOT_REQUIRED');
    expect(s.history()).toEqual([['ANULACION_NO_INFORMADA', 'not_required']]);
  });

  it('retries a transient failure with backoff, then FAILED once the attempts are spent', async () => {
    const s = await setup([unavailable(new UpstreamFailure('ministerio', 'HTTP 503', true))]);
    const before = Date.now();
    await s.attempt(1);
    expect(s.row()).toMatchObject({ anulacion_estado: 'PENDING', anulacion_intentos: 1 });
    expect(s.scheduled[0].job).toEqual({ id_transaccion: '1', attempt: 2, kind: 'anulacion' });
    expect(s.scheduled[0].startAfter.getTime() - before).toBeGreaterThanOrEqual(24_000);
    expect(s.history()).toEqual([['ANULACION_INTENTO', 'error']]);

    const last = await setup([unavailable(new UpstreamFailure('ministerio', 'timeout', true))], {
      anulacion_intentos: 2,
    });
    await last.attempt(3);
    expect(last.row()).toMatchObject({ anulacion_estado: 'FAILED', anulacion_intentos: 3 });
    expect(last.history()).toEqual([
      ['ANULACION_INTENTO', 'error'],
      ['ANULACION_FALLIDA', 'failed'],
    ]);
    expect(last.scheduled).toEqual([]);
  });

  it('a rejection is final', async () => {
    const s = await setup([new MinisterioRejection('NO_ENCONTRADO', 'no pointer')]);
    await s.attempt();
    expect(s.row().anulacion_estado).toBe('FAILED');
    expect(s.history().at(-1)).toEqual(['ANULACION_FALLIDA', 'failed']);
  });

  it('does not count a call the breaker stopped: the same attempt waits for it', async () => {
    const s = await setup([unavailable(new BrokenCircuitError())]);
    const before = Date.now();
    await s.attempt();
    expect(s.row()).toMatchObject({ anulacion_estado: 'PENDING', anulacion_intentos: 0 });
    expect(s.history()).toEqual([]);
    expect(s.scheduled[0].job.attempt).toBe(1);
    expect(s.scheduled[0].startAfter.getTime() - before).toBeGreaterThanOrEqual(10_000);
  });

  it('does nothing for an attempt recorded already or a notice settled (repeated jobs)', async () => {
    const s = await setup([], { anulacion_intentos: 1 });
    await s.attempt(1);
    const done = await setup([], { anulacion_estado: 'COMPLETED', anulacion_intentos: 1 });
    await done.attempt(2);
    expect([...s.ministerio.cancelled, ...done.ministerio.cancelled]).toEqual([]);
  });
});
