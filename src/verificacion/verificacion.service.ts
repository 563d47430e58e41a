import { Injectable } from '@nestjs/common';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { ApiClientsService } from '../auth/api-clients.service.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { dateRangePage } from '../common/validation/date-range-page.query.js';
import { parseCuir } from '../cuir/cuir.public.js';
import type {
  ListadoVerificacionesDto,
  ListarVerificacionesQuery,
  VerificacionRecetaDto,
} from './dto/verificacion.dto.js';
import { recetaContentHash, vistaDe } from '../recetas/recetas.public.js';
import { contenidoVisible, itemContenido, RecetasService } from '../recetas/recetas.service.js';
import { EnumeracionLimiter } from './enumeracion-limiter.js';
import { VerificacionesRepository } from './verificaciones.repository.js';

/**
 * Verification by CUIR (Disp. DNSISA 1/2025, contract §3, §7): a dispenser holding only the CUIR
 * learns whether any client's prescription exists, its state, content and what it may dispense,
 * never the patient's document. Every call is audited for the owner to list; too many unknown
 * CUIRs in a minute are refused until it ends (EnumeracionLimiter).
 */
@Injectable()
export class VerificacionService {
  constructor(
    private readonly recetas: RecetasService,
    private readonly audit: VerificacionesRepository,
    private readonly clients: ApiClientsService,
    private readonly auditoria: AuditoriaService,
    private readonly enumeracion: EnumeracionLimiter,
  ) {}

  async verificar(verifier: AuthenticatedClient, cuir: string): Promise<VerificacionRecetaDto> {
    const parsed = parseCuir(cuir);
    const event = { tipo: 'verificacion', actor: verifier.id };
    if (!parsed.ok) {
      await this.auditoria.record({ ...event, resultado: 'VALIDATION_FAILED' });
      throw new DomainError('VALIDATION_FAILED', 'Not a valid CUIR', [
        { field: 'cuir', issue: parsed.issues.map((i) => i.issue).join('; ') },
      ]);
    }
    const refusal = await this.enumeracion.refusal(verifier.id);
    if (refusal) {
      // Nothing was looked up: only the event log records the refusal.
      await this.auditoria.record({ ...event, cuir, resultado: refusal.code });
      throw refusal;
    }
    const r = await this.recetas.findByCuirFromReplica(cuir);
    // A miss counts before anything is answered or written: past the limit it is a refusal.
    const tooMany = r ? null : await this.enumeracion.missed(verifier.id);
    // Both trails in one statement: the owner's list of verifications and the event log.
    await this.audit.record(
      {
        verifier_client_id: verifier.id,
        cuir,
        id_transaccion: r?.id_transaccion ?? null,
        owner_client_id: r?.client_id ?? null,
        found: !!r,
      },
      [
        this.auditoria.eventInStatement({
          ...event,
          cuir,
          resultado: r ? 'ok' : (tooMany?.code ?? 'NOT_FOUND'),
        }),
      ],
    );
    if (tooMany) throw tooMany;
    if (!r) throw notFound('Prescription');
    const vida = await this.recetas.vida(r);
    const heldByOther = vida.reserva !== null && vida.reserva.client_id !== verifier.id;
    const open = vida.anulacion === null && vida.en_ventana && !heldByOther;
    return {
      ...vistaDe(r, vida),
      estado: r.estado,
      jurisdiccion: parsed.components.jurisdiction,
      // Each item's content (what a pharmacy dispenses from), never the patient or diagnosis.
      items: r.items.map((item, i) => ({
        item: i + 1,
        ...itemContenido(item),
        dispensado: vida.dispensado[i],
        dispensable: open && !vida.cerrado[i],
      })),
      // The coverage, which the pharmacy bills; never `paciente`, `diagnostico` or the document.
      ...contenidoVisible(r, ['cobertura']),
      // Whether the caller holds it, never who else does.
      reserva: vida.reserva
        ? { vence_at: vida.reserva.vence_at.toISOString(), propia: !heldByOther }
        : null,
      content_sha256: recetaContentHash(r),
    };
  }

  async auditFor(
    owner: AuthenticatedClient,
    q: ListarVerificacionesQuery,
  ): Promise<ListadoVerificacionesDto> {
    const { desde, hasta, page, perPage, limit, offset } = dateRangePage(q);
    const f = { desde, hasta, cuir: q.cuir, limit, offset };
    const { total, items } = await this.audit.listForOwner(owner.id, f);
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
