import { Injectable } from '@nestjs/common';
import { ACTOR_PUBLICO } from '../auditoria/auditoria.public.js';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { notFound } from '../common/errors/domain-error.js';
import { jurisdictionName } from '../common/indec-jurisdictions.js';
import { parseCuir } from '../cuir/cuir.public.js';
import { ProfesionalService } from '../profesional/profesional.service.js';
import { recetaContentHash, vistaDe } from '../recetas/recetas.public.js';
import { RecetasService } from '../recetas/recetas.service.js';
import type { VerificacionPublicaDto } from './dto/verificacion-publica.dto.js';
import { EnlacesPublicos } from './enlaces-publicos.service.js';

/**
 * The public verification (contract §9.4) by CUIR and the link's signature: a malformed CUIR, a
 * wrong signature and an unknown CUIR are one 404, so CUIRs cannot be walked; every view is an event.
 */
@Injectable()
export class PublicoService {
  constructor(
    private readonly enlaces: EnlacesPublicos,
    private readonly recetas: RecetasService,
    private readonly profesional: ProfesionalService,
    private readonly auditoria: AuditoriaService,
  ) {}

  async ver(cuir: string, firma: unknown): Promise<VerificacionPublicaDto> {
    const parsed = parseCuir(cuir);
    const r =
      parsed.ok && this.enlaces.valida(cuir, firma)
        ? await this.recetas.findByCuirFromReplica(cuir)
        : null;
    await this.auditoria.record({
      tipo: 'verificacion_publica',
      cuir: parsed.ok ? cuir : null,
      idTransaccion: r?.id_transaccion ?? null,
      actor: ACTOR_PUBLICO,
      resultado: r ? 'ok' : 'NOT_FOUND',
    });
    if (!parsed.ok || !r) throw notFound('Prescription');
    const jurisdiccion = parsed.components.jurisdiction;
    const [vida, nombre] = await Promise.all([
      this.recetas.vida(r),
      this.profesional.nombreDe(r.matricula_profesional, jurisdiccion),
    ]);
    return {
      ...vistaDe(r, vida),
      jurisdiccion,
      jurisdiccion_nombre: jurisdictionName(jurisdiccion) ?? '',
      profesional_nombre: nombre,
      items: r.items.map((item, i) => ({
        item: i + 1,
        nombre: item.nombre,
        ...(item.dci ? { dci: item.dci } : {}),
        ...(item.concentracion ? { concentracion: item.concentracion } : {}),
        cantidad: item.cantidad,
        dispensado: vida.dispensado[i],
      })),
      content_sha256: recetaContentHash(r),
    };
  }
}
