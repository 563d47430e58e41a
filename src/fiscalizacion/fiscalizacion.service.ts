import { Injectable } from '@nestjs/common';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { dateRangePage } from '../common/validation/date-range-page.query.js';
import { CUIR_PATTERN } from '../cuir/cuir.public.js';
import {
  jurisdiccionDe,
  RecetasService,
  subtipoRestringido,
  type Receta,
} from '../recetas/recetas.service.js';
import type { ListarFiscalizacionQuery } from './dto/fiscalizacion.query.js';
import type {
  ListadoFiscalizacionDto,
  RecetaFiscalizadaDto,
} from './dto/receta-fiscalizada.dto.js';
import { recetaFiscalizada } from './receta-fiscalizada.js';

const CUIR = new RegExp(CUIR_PATTERN);

/**
 * The health authority's copy of restricted prescriptions (SPEC 9.3): only restricted ones
 * (CUIR type 01, subtype 03 or 04), only of the authority's own jurisdictions, whoever
 * registered them. Every call is one event (`fiscalizacion`, the authority as actor).
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
    const visible = r && this.visibleTo(autoridad, r) ? r : null;
    await this.record(autoridad, visible, visible ? 'ok' : 'NOT_FOUND', cuir);
    if (!visible) throw notFound('Restricted prescription');
    return this.view(visible);
  }

  private visibleTo(autoridad: AuthenticatedClient, r: Receta): boolean {
    return (
      subtipoRestringido(r.cuir) !== null &&
      autoridad.jurisdicciones.includes(jurisdiccionDe(r.cuir))
    );
  }

  private async view(r: Receta): Promise<RecetaFiscalizadaDto> {
    const subtipo = subtipoRestringido(r.cuir);
    // Only restricted rows reach here (the listing's query, visibleTo).
    if (!subtipo) throw new Error(`not a restricted prescription: ${r.id_transaccion}`);
    return recetaFiscalizada(r, subtipo, await this.recetas.vida(r));
  }

  /**
   * One event per call: the CUIR asked for (when well-formed), and the prescription's id only
   * when the authority may see it, so the owner's view of its events (by id) never shows
   * another jurisdiction's authority asking.
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
