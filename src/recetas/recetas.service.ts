import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../common/database-errors.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { dateRangePage } from '../common/validation/date-range-page.query.js';
import { parseCuir } from '../cuir/cuir-format.js';
import { IdempotencyClaim, IdempotencyKeyTaken } from '../idempotency/idempotency-claim.js';
import { ProfesionalService } from '../profesional/profesional.service.js';
import type { ListarRecetasQuery } from './dto/listar-recetas.query.js';
import type {
  ListadoRecetasDto,
  RecetaDetalleDto,
  RegistroRecetaDto,
  TransaccionDto,
} from './dto/receta-responses.dto.js';
import type { RegistrarRecetaDto } from './dto/registrar-receta.dto.js';
import { MinistryNotificationService } from './ministry-notification.service.js';
import { MENSAJES, REGISTERED } from './receta-state.js';
import { CUIR_UNIQUE_INDEX, RecetaRow, RecetasRepository } from './recetas.repository.js';
import { listingAnswer } from './listing.js';
import { newReceta, pendingAnswer } from './registration.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * `total` is exact up to this many matches; beyond it, `total` is this number and
 * `total_exact` is false. Counting a million-row range exactly costs seconds of database CPU
 * per request, which no listing page is worth; narrower filters give exact totals.
 */
export const LIST_COUNT_CAP = 10_000;

/** Registration, listing, detail and tracking of prescriptions (SPEC 3); tenant-scoped throughout. */
@Injectable()
export class RecetasService {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly profesional: ProfesionalService,
    private readonly notifications: MinistryNotificationService,
  ) {}

  async register(
    client: AuthenticatedClient,
    dto: RegistrarRecetaDto,
    claim?: IdempotencyClaim,
  ): Promise<RegistroRecetaDto> {
    const parsed = parseCuir(dto.cuir);
    if (!parsed.ok)
      throw new DomainError('VALIDATION_FAILED', 'Request validation failed', [
        { field: 'cuir', issue: 'must be a valid CUIR' },
      ]);
    const jurisdiccion = parsed.components.jurisdiction;
    // Asking REFEPS may take seconds: the key is written as in progress first, so a duplicate
    // meanwhile gets 409 IDEMPOTENCY_KEY_IN_PROGRESS (SPEC 3). From the cache, the key is
    // taken by the registration's own statement instead, saving a round trip.
    if (claim && !this.profesional.isLicenceCheckCached(dto.matricula_profesional, jurisdiccion))
      await claim.hold();
    if (!(await this.profesional.isLicenceEnabled(dto.matricula_profesional, jurisdiccion))) {
      throw new DomainError(
        'PROFESSIONAL_NOT_ENABLED',
        `Licence ${dto.matricula_profesional} is not enabled in jurisdiction ${jurisdiccion}`,
        [
          {
            field: 'matricula_profesional',
            issue: `is not enabled in REFEPS for jurisdiction ${jurisdiccion}`,
          },
        ],
      );
    }
    const key = claim?.key ?? null;
    const answer = pendingAnswer(dto);
    try {
      const created = await this.recetas.insertRegistration(
        newReceta(client.id, dto, key),
        REGISTERED,
        [this.notifications.firstDelivery()],
        claim?.settleWith(answer, 'id_transaccion'),
      );
      if (!created) throw new IdempotencyKeyTaken();
      claim?.markSettled();
      return { id_transaccion: created.id_transaccion, ...answer };
    } catch (err) {
      if (!isUniqueViolation(err, CUIR_UNIQUE_INDEX)) throw err;
      // The same client retrying with the same Idempotency-Key after that key's stored answer
      // expired (24 h) but its prescription is here: answer as the first time.
      const existing = await this.recetas.findByCuir(dto.cuir);
      if (existing && key && existing.client_id === client.id && existing.idempotency_key === key) {
        return {
          id_transaccion: existing.id_transaccion,
          estado: 'PENDING',
          mensaje: MENSAJES.PENDING,
          cuir: existing.cuir,
          id_de_receta: existing.id_de_receta,
        };
      }
      throw new DomainError('CUIR_ALREADY_REGISTERED', 'This CUIR is already registered');
    }
  }

  async list(client: AuthenticatedClient, q: ListarRecetasQuery): Promise<ListadoRecetasDto> {
    const { desde, hasta, page, perPage, limit, offset } = dateRangePage(q);
    const listed = await this.recetas.listForClient(
      {
        clientId: client.id,
        desde,
        hasta,
        matricula: q.matricula,
        documento: q.documento,
        estado: q.estado,
        asOf: q.as_of,
        limit,
        offset,
      },
      LIST_COUNT_CAP,
    );
    return listingAnswer(listed, { page, perPage }, LIST_COUNT_CAP);
  }

  async detail(client: AuthenticatedClient, id: string): Promise<RecetaDetalleDto> {
    const r = await this.owned(client, id);
    return {
      id_transaccion: r.id_transaccion,
      cuir: r.cuir,
      documento_paciente: r.documento_paciente,
      matricula_profesional: r.matricula_profesional,
      refeps_id: r.refeps_id,
      locacion: r.locacion,
      id_de_receta: r.id_de_receta,
      nombre_medicamento: r.nombre_medicamento,
      fecha_creacion: r.fecha_creacion.toISOString(),
      items: r.items,
      estado: r.estado,
      mensaje: r.mensaje,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
      ...(r.estado === 'COMPLETED' && r.completed_at
        ? { completed_at: r.completed_at.toISOString() }
        : {}),
      ...(r.estado === 'FAILED' && r.failure_reason ? { failure_reason: r.failure_reason } : {}),
    };
  }

  async tracking(client: AuthenticatedClient, id: string): Promise<TransaccionDto> {
    const r = await this.owned(client, id);
    const historial = await this.recetas.history(r.id_transaccion);
    return {
      id_transaccion: r.id_transaccion,
      cuir: r.cuir,
      estado: r.estado,
      intentos: r.intentos,
      ultimo_intento_at: iso(r.ultimo_intento_at),
      proximo_intento_at: iso(r.proximo_intento_at),
      ministerio_ref: r.ministerio_ref,
      historial: historial.map((h) => ({ ...h, at: h.at.toISOString() })),
    };
  }

  /** Another client's transaction answers exactly like a missing one (no existence oracle). */
  private async owned(client: AuthenticatedClient, id: string): Promise<RecetaRow> {
    const r = /^\d{1,18}$/.test(id) ? await this.recetas.findForClient(client.id, id) : null;
    if (!r) throw notFound('Transaction');
    return r;
  }
}
