import { Inject, Injectable } from '@nestjs/common';
import { ACTOR_PACIENTE } from '../auditoria/auditoria.public.js';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { publicBaseUrl } from '../config/core-config.js';
import { vistaDe } from '../recetas/recetas.public.js';
import {
  contenidoVisible,
  itemContenido,
  Receta,
  RecetasService,
} from '../recetas/recetas.service.js';
import { cuilMatchesDocumento, isValidCuil } from './cuil.js';
import { DocumentoService } from './documento.service.js';
import type { RecetaPacienteDto } from './dto/receta-paciente.dto.js';

/**
 * The citizen's own access (contract §8, Mi Argentina) and the printable document, for the citizen
 * and for the prescription's owner. A prescription is the citizen's when the middle eight
 * digits of the token's CUIL are its patient's DNI; anything else — another citizen's CUIR, an
 * unknown CUIR, a CUIL with a bad check digit — is the same 404. Every access and download is
 * in the event log, refused ones too.
 */
@Injectable()
export class PacienteService {
  constructor(
    private readonly recetas: RecetasService,
    private readonly documentos: DocumentoService,
    private readonly auditoria: AuditoriaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async receta(cuil: string, cuir: string): Promise<RecetaPacienteDto> {
    const r = await this.delCiudadano(cuil, cuir, 'acceso_paciente');
    const vida = await this.recetas.vida(r);
    await this.log('acceso_paciente', ACTOR_PACIENTE, r, 'ok');
    return {
      ...vistaDe(r, vida),
      items: r.items.map((i, n) => ({
        ...itemContenido(i),
        dispensado: vida.dispensado[n] ?? 0,
      })),
      // Their own data: who it is for, the coverage, the diagnosis.
      ...contenidoVisible(r, ['paciente', 'cobertura', 'diagnostico']),
      documento_url: `${publicBaseUrl(this.config)}/v1/paciente/recetas/${r.cuir}/documento`,
    };
  }

  /** The citizen's printable prescription. */
  async documentoPorCiudadano(cuil: string, cuir: string): Promise<Buffer> {
    const r = await this.delCiudadano(cuil, cuir, 'documento');
    return this.rendered(ACTOR_PACIENTE, r);
  }

  /** The owner's printable prescription; another client's id answers like a missing one. */
  async documentoPorCliente(
    client: AuthenticatedClient,
    id: string,
  ): Promise<{ pdf: Buffer; cuir: string }> {
    const r = await this.recetas.findById(id);
    if (!r || r.client_id !== client.id) {
      await this.auditoria.record({ tipo: 'documento', actor: client.id, resultado: 'NOT_FOUND' });
      throw notFound('Prescription');
    }
    return { pdf: await this.rendered(client.id, r), cuir: r.cuir };
  }

  /** The document, its download in the event log; a refused render (503) is logged too. */
  private async rendered(actor: string, r: Receta): Promise<Buffer> {
    let pdf: Buffer;
    try {
      pdf = await this.documentos.render(r);
    } catch (err) {
      // A download turned away while every render slot is busy (503) is in the log with that
      // result (contract §8): the attempt is the owner's to see, though it is no refusal of
      // theirs. Any other refusal follows the one rule (4xx only; never replaces the answer).
      if (err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE')
        await this.auditoria.recordBeside({
          tipo: 'documento',
          cuir: r.cuir,
          idTransaccion: r.id_transaccion,
          actor,
          resultado: err.code,
        });
      else
        await this.auditoria.recordRefusal(err, {
          tipo: 'documento',
          cuir: r.cuir,
          idTransaccion: r.id_transaccion,
          actor,
        });
      throw err;
    }
    await this.log('documento', actor, r, 'ok');
    return pdf;
  }

  private async delCiudadano(cuil: string, cuir: string, tipo: string): Promise<Receta> {
    const r = await this.recetas.findByCuir(cuir);
    if (!r || !isValidCuil(cuil) || !cuilMatchesDocumento(cuil, r.documento_paciente)) {
      // The refusal is logged against the CUIR asked for (no personal data: never the CUIL).
      await this.auditoria.record({
        tipo,
        cuir,
        idTransaccion: r?.id_transaccion ?? null,
        actor: ACTOR_PACIENTE,
        resultado: 'NOT_FOUND',
      });
      throw notFound('Prescription');
    }
    return r;
  }

  private log(tipo: string, actor: string, r: Receta, resultado: string): Promise<string> {
    return this.auditoria.record({
      tipo,
      cuir: r.cuir,
      idTransaccion: r.id_transaccion,
      actor,
      resultado,
    });
  }
}
