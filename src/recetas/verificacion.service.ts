import { Injectable } from '@nestjs/common';
import { ApiClientsService } from '../auth/api-clients.service.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { dateRangePage } from '../common/validation/date-range-page.query.js';
import { parseCuir } from '../cuir/cuir-format.js';
import type {
  ListadoVerificacionesDto,
  ListarVerificacionesQuery,
  VerificacionRecetaDto,
} from './dto/verificacion.dto.js';
import { recetaContentHash } from './receta-content-hash.js';
import { RecetasRepository } from './recetas.repository.js';
import { VerificacionesRepository } from './verificaciones.repository.js';

/**
 * Verification by CUIR (Disp. DNSISA 1/2025): a dispenser holding only the CUIR learns whether
 * the prescription exists, its state and its content — for any client's prescription, without
 * the patient's document. Every call is audited, and the owner can list who verified what.
 */
@Injectable()
export class VerificacionService {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly audit: VerificacionesRepository,
    private readonly clients: ApiClientsService,
  ) {}

  async verify(verifier: AuthenticatedClient, cuir: string): Promise<VerificacionRecetaDto> {
    const parsed = parseCuir(cuir);
    if (!parsed.ok) {
      throw new DomainError('VALIDATION_FAILED', 'Not a valid CUIR', [
        { field: 'cuir', issue: parsed.issues.map((i) => i.issue).join('; ') },
      ]);
    }
    const r = await this.recetas.findByCuir(cuir);
    await this.audit.record({
      verifierClientId: verifier.id,
      cuir,
      idTransaccion: r?.id_transaccion ?? null,
      ownerClientId: r?.client_id ?? null,
      found: !!r,
    });
    if (!r) throw notFound('Prescription');
    return {
      cuir: r.cuir,
      estado: r.estado,
      fecha_creacion: r.fecha_creacion.toISOString(),
      matricula_profesional: r.matricula_profesional,
      jurisdiccion: parsed.components.jurisdiction,
      items: r.items,
      content_sha256: recetaContentHash(r),
    };
  }

  async auditFor(
    owner: AuthenticatedClient,
    q: ListarVerificacionesQuery,
  ): Promise<ListadoVerificacionesDto> {
    const { desde, hasta, page, perPage, limit, offset } = dateRangePage(q);
    const { total, items } = await this.audit.listForOwner(owner.id, {
      desde,
      hasta,
      cuir: q.cuir,
      limit,
      offset,
    });
    const names = await this.clients.names(items.map((i) => i.verifier_client_id));
    return {
      total,
      page,
      per_page: perPage,
      items: items.map((i) => ({
        cuir: i.cuir,
        id_transaccion: i.id_transaccion,
        verificado_por: names.get(i.verifier_client_id) ?? '(unknown)',
        verificado_por_id: i.verifier_client_id,
        at: i.at.toISOString(),
      })),
    };
  }
}
