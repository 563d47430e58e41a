import { Injectable } from '@nestjs/common';
import { ID_TRANSACCION } from '../../common/validation/patterns.js';
import { AuditoriaService } from '../../auditoria/auditoria.service.js';
import { notFound } from '../../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { dateRangePage } from '../../common/validation/date-range-page.query.js';
import { contenidoVisible, itemContenido } from '../contenido/contenido.js';
import type { RecetaEntity } from '../entities/receta.entity.js';
import { RecetasRepository } from '../recetas.repository.js';
import type { ListadoEventosDto, ListarEventosQuery } from './dto/eventos.dto.js';
import type { VidaReceta } from '../vida/receta-vida.js';
import { RecetasService } from '../recetas.service.js';
import type { ListarRecetasQuery } from './dto/listar-recetas.query.js';
import type {
  ListadoRecetasDto,
  RecetaDetalleDto,
  TransaccionDto,
} from './dto/receta-responses.dto.js';
import { listingAnswer } from './listado.sql.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Listing, detail and tracking of the caller's own prescriptions (contract §3). */
@Injectable()
export class ConsultaService {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly auditoria: AuditoriaService,
    private readonly vidas: RecetasService,
  ) {}

  async list(client: AuthenticatedClient, q: ListarRecetasQuery): Promise<ListadoRecetasDto> {
    const { desde, hasta, page, perPage, limit, offset } = dateRangePage(q);
    const { rows, asOf } = await this.recetas.listForClient(
      {
        clientId: client.id,
        desde,
        hasta,
        matricula: q.matricula,
        documento: q.documento,
        estado: q.estado,
        limit,
        offset,
      },
      q.as_of,
    );
    return listingAnswer(rows, asOf, { page, perPage });
  }

  async detail(client: AuthenticatedClient, id: string): Promise<RecetaDetalleDto> {
    const r = await this.owned(client, id);
    const vida = await this.vidas.vida(r);
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
      items: r.items.map((item, i) => ({ ...itemContenido(item), dispensado: vida.dispensado[i] })),
      ...contenidoVisible(r, ['paciente', 'cobertura', 'diagnostico']),
      estado: r.estado,
      mensaje: r.mensaje,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
      ...(r.estado === 'COMPLETED' && r.completed_at
        ? { completed_at: r.completed_at.toISOString() }
        : {}),
      ...(r.estado === 'FAILED' && r.failure_reason ? { failure_reason: r.failure_reason } : {}),
      ...lifeOf(r, vida),
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

  /** The prescription's events in the log (contract §8), oldest first, paged like the listing. */
  async events(
    client: AuthenticatedClient,
    id: string,
    q: ListarEventosQuery,
  ): Promise<ListadoEventosDto> {
    const r = await this.owned(client, id);
    const page = q.page ?? 1;
    const perPage = q.per_page ?? 50;
    const { total, items } = await this.auditoria.listForReceta(r.id_transaccion, {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      total,
      page,
      per_page: perPage,
      items: items.map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        tipo: e.tipo,
        cuir: e.cuir,
        id_transaccion: e.idTransaccion,
        actor: e.actor,
        resultado: e.resultado,
        request_id: e.requestId,
        client_request_id: e.clientRequestId,
      })),
    };
  }

  /** Another client's transaction answers exactly like a missing one (no existence oracle). */
  private async owned(client: AuthenticatedClient, id: string): Promise<RecetaEntity> {
    const r = ID_TRANSACCION.test(id) ? await this.recetas.findForClient(client.id, id) : null;
    if (!r) throw notFound('Transaction');
    return r;
  }
}

/** The detail's contract §7 part: state, window, cancellation and dispensations. */
function lifeOf(r: RecetaEntity, vida: VidaReceta) {
  return {
    estado_receta: vida.estado_receta,
    vigencia_desde: vida.vigencia_desde,
    vigencia_hasta: vida.vigencia_hasta,
    anulacion: vida.anulacion
      ? { at: vida.anulacion.at.toISOString(), motivo: vida.anulacion.motivo }
      : null,
    // The dispensation's own names (SPEC 11.11), as its answer and the authority's view give them.
    dispensas: vida.dispensas.map((d) => ({
      id_dispensa: d.id,
      fecha_dispensa: d.fecha_dispensa.toISOString(),
      farmacia: d.farmacia,
      items: d.items.map((i) => ({
        item: i.item,
        nombre: r.items[i.item - 1]?.nombre ?? '',
        cantidad_dispensada: i.cantidad,
        ...(i.codigo ? { codigo: i.codigo } : {}),
        sustituido: i.sustituido,
      })),
      revertida: d.revertida,
    })),
  };
}
