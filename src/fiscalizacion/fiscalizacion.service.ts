import { Injectable } from '@nestjs/common';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { dateRangePage } from '../common/validation/date-range-page.query.js';
import { CUIR_PATTERN } from '../cuir/cuir.public.js';
import {
  diagnosticoDe,
  itemContenido,
  jurisdiccionDe,
  pacienteDe,
  RecetasService,
  subtipoRestringido,
  type Receta,
} from '../recetas/recetas.service.js';
import type { ListarFiscalizacionQuery } from './dto/fiscalizacion.query.js';
import type {
  ListadoFiscalizacionDto,
  RecetaFiscalizadaDto,
} from './dto/receta-fiscalizada.dto.js';

const CUIR = new RegExp(CUIR_PATTERN);

/**
 * The health authority's copy of restricted prescriptions (SPEC 9.3): only restricted ones
 * (CUIR type 01, subtype 03 or 04) of the authority's own jurisdictions, whoever registered
 * them. Every call is one event (`fiscalizacion`, the authority as actor).
 */
@Injectable()
export class FiscalizacionService {
  constructor(
    private readonly recetas: RecetasService,
    private readonly auditoria: AuditoriaService,
  ) {}

  async listar(
    autoridad: AuthenticatedClient,
    q: ListarFiscalizacionQuery,
  ): Promise<ListadoFiscalizacionDto> {
    const { desde, hasta, page, perPage, limit, offset } = dateRangePage(q);
    const { rows, total } = await this.recetas.restringidas({
      jurisdicciones: autoridad.jurisdicciones,
      desde,
      hasta,
      subtipo: q.subtipo,
      matricula: q.matricula,
      documento: q.documento,
      limit,
      offset,
    });
    const items = await Promise.all(rows.map((r) => this.view(r)));
    await this.record(autoridad, null, 'ok');
    return { total, page, per_page: perPage, items };
  }

  /** Not restricted, another jurisdiction's or unknown: the same 404. */
  async obtener(autoridad: AuthenticatedClient, cuir: string): Promise<RecetaFiscalizadaDto> {
    const r = CUIR.test(cuir) ? await this.recetas.findByCuir(cuir) : null;
    const visible =
      r &&
      subtipoRestringido(r.cuir) !== null &&
      autoridad.jurisdicciones.includes(jurisdiccionDe(r.cuir))
        ? r
        : null;
    await this.record(autoridad, visible, visible ? 'ok' : 'NOT_FOUND', cuir);
    if (!visible) throw notFound('Restricted prescription');
    return this.view(visible);
  }

  /**
   * The patient and the diagnosis (never the coverage: the authority audits the prescribing and
   * the dispensing, not the insurer), the items, the cancellation and every dispensation.
   */
  private async view(r: Receta): Promise<RecetaFiscalizadaDto> {
    const subtipo = subtipoRestringido(r.cuir);
    // Only restricted rows reach here (the listing's query, obtener's check).
    if (!subtipo) throw new Error(`not a restricted prescription: ${r.id_transaccion}`);
    const vida = await this.recetas.vida(r);
    const paciente = pacienteDe(r);
    return {
      cuir: r.cuir,
      id_transaccion: r.id_transaccion,
      subtipo,
      fecha_creacion: r.fecha_creacion.toISOString(),
      documento_paciente: r.documento_paciente,
      // Only a prescription registered before restricted ones required it lacks it.
      ...(paciente ? { paciente } : {}),
      diagnostico: diagnosticoDe(r),
      matricula_profesional: r.matricula_profesional,
      jurisdiccion: jurisdiccionDe(r.cuir),
      estado_receta: vida.estado_receta,
      vigencia_desde: vida.vigencia_desde,
      vigencia_hasta: vida.vigencia_hasta,
      items: r.items.map((item, i) => ({ ...itemContenido(item), dispensado: vida.dispensado[i] })),
      anulacion: vida.anulacion
        ? { at: vida.anulacion.at.toISOString(), motivo: vida.anulacion.motivo }
        : null,
      dispensas: vida.dispensas.map((d) => ({
        id_dispensa: d.id,
        fecha_dispensa: d.fecha_dispensa.toISOString(),
        farmacia: d.farmacia,
        items: d.items.map((i) => ({
          item: i.item,
          cantidad_dispensada: i.cantidad,
          codigo: i.codigo,
          sustituido: i.sustituido,
        })),
        revertida: d.revertida,
        revertida_at: d.revertida_at ? d.revertida_at.toISOString() : null,
      })),
    };
  }

  /**
   * One event per call: the CUIR asked for, and the prescription's id only when the authority
   * may see it, so the owner's view of its events never shows another jurisdiction's authority.
   */
  private async record(
    autoridad: AuthenticatedClient,
    r: Receta | null,
    resultado: 'ok' | 'NOT_FOUND',
    cuir: string | null = null,
  ): Promise<void> {
    await this.auditoria.record({
      tipo: 'fiscalizacion',
      cuir,
      idTransaccion: r?.id_transaccion ?? null,
      actor: autoridad.id,
      resultado,
    });
  }
}
