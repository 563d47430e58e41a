import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { ACTOR_PACIENTE } from '../auditoria/auditoria.public.js';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import { DomainError, notFound } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { publicBaseUrl } from '../config/core-config.js';
import { InjectSettings } from '../config/inject-settings.js';
import { parseCuir } from '../cuir/cuir.public.js';
import { ProfesionalService } from '../profesional/profesional.service.js';
import { EnlacesPublicos } from '../publico/enlaces-publicos.service.js';
import { recetaContentHash, vistaDe, type VidaReceta } from '../recetas/recetas.public.js';
import {
  coberturaDe,
  contenidoVisible,
  diagnosticoDe,
  itemContenido,
  LEYENDA_SUBTIPO,
  pacienteDe,
  Receta,
  RecetasService,
  subtipoRestringido,
} from '../recetas/recetas.service.js';
import { cuilMatchesDocumento, isValidCuil } from './cuil.js';
import type { RecetaPacienteDto } from './dto/receta-paciente.dto.js';
import { pacienteSettings, type PacienteSettings } from './paciente.settings.js';
import {
  RenderPool,
  RenderPoolClosed,
  RenderPoolFull,
  renderWorkerFile,
} from './pdf/render-pool.js';
import { jurisdiccionOf, type RecetaPdfDispensa, type RecetaPdfView } from './receta-pdf-view.js';

/**
 * The citizen's own access (contract §8, Mi Argentina) and the printable document, for the
 * citizen and for the owner. A prescription is the citizen's when the middle eight digits of the
 * token's CUIL are its patient's DNI; anything else is the same 404. Every access and download
 * is in the event log, refused ones too.
 */
@Injectable()
export class PacienteService implements OnModuleDestroy {
  private readonly pool: RenderPool;

  constructor(
    private readonly recetas: RecetasService,
    private readonly auditoria: AuditoriaService,
    private readonly profesional: ProfesionalService,
    private readonly enlaces: EnlacesPublicos,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectSettings(pacienteSettings) settings: PacienteSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    const log = logger.child({ component: 'paciente' });
    // Workers start with the first document: each holds its own heap and fonts (~25 MB).
    this.pool = new RenderPool({
      workerFile: renderWorkerFile(),
      size: settings.pdfRenders.max,
      queue: settings.pdfRenders.queue,
      onWorkerError: (err) => log.error({ err }, 'a PDF render worker could not be replaced'),
    });
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }

  async receta(cuil: string, cuir: string): Promise<RecetaPacienteDto> {
    const r = await this.delCiudadano(cuil, cuir, 'acceso_paciente');
    const vida = await this.recetas.vida(r);
    await this.log('acceso_paciente', ACTOR_PACIENTE, r, 'ok');
    return {
      ...vistaDe(r, vida),
      items: r.items.map((i, n) => ({ ...itemContenido(i), dispensado: vida.dispensado[n] ?? 0 })),
      // Their own data: who it is for, the coverage, the diagnosis.
      ...contenidoVisible(r, ['paciente', 'cobertura', 'diagnostico']),
      documento_url: `${publicBaseUrl(this.config)}/v1/paciente/recetas/${r.cuir}/documento`,
    };
  }

  async documentoPorCiudadano(cuil: string, cuir: string): Promise<Buffer> {
    const r = await this.delCiudadano(cuil, cuir, 'documento');
    return this.rendered(ACTOR_PACIENTE, r);
  }

  /** The owner's printable prescription; another client's id answers like a missing one. */
  async documentoPorCliente(client: AuthenticatedClient, id: string) {
    const r = await this.recetas.findById(id);
    if (!r || r.client_id !== client.id) {
      await this.auditoria.record({ tipo: 'documento', actor: client.id, resultado: 'NOT_FOUND' });
      throw notFound('Prescription');
    }
    return { pdf: await this.rendered(client.id, r), cuir: r.cuir };
  }

  /** Drawn in a worker thread, never on the event loop; the download is in the event log. */
  private async rendered(actor: string, r: Receta): Promise<Buffer> {
    let pdf: Buffer;
    try {
      pdf = await this.pool.render(await this.view(r)).catch((err: unknown) => {
        if (!(err instanceof RenderPoolFull || err instanceof RenderPoolClosed)) throw err;
        throw new DomainError(
          'SERVICE_UNAVAILABLE',
          'Too many documents are being rendered; retry shortly',
          undefined,
          { cause: err, headers: { 'Retry-After': '1' } },
        );
      });
    } catch (err) {
      // A download turned away while every render slot is busy (503) is logged too (contract §8);
      // any other refusal follows the one rule (4xx only).
      const event = { tipo: 'documento', cuir: r.cuir, idTransaccion: r.id_transaccion, actor };
      if (err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE')
        await this.auditoria.recordBeside({ ...event, resultado: err.code });
      else await this.auditoria.recordRefusal(err, event);
      throw err;
    }
    await this.log('documento', actor, r, 'ok');
    return pdf;
  }

  private async view(r: Receta): Promise<RecetaPdfView> {
    const vida = await this.recetas.vida(r);
    const parsed = parseCuir(r.cuir);
    const jurisdiccion = parsed.ok ? parsed.components.jurisdiction : r.cuir.slice(8, 10);
    const subtipo = subtipoRestringido(r.cuir);
    return {
      cuir: r.cuir,
      fecha_creacion: r.fecha_creacion.toISOString(),
      vigencia_desde: vida.vigencia_desde,
      vigencia_hasta: vida.vigencia_hasta,
      matricula_profesional: r.matricula_profesional,
      jurisdiccion: jurisdiccionOf(jurisdiccion),
      profesional_nombre: await this.profesional.nombreDe(r.matricula_profesional, jurisdiccion),
      documento_paciente: r.documento_paciente,
      paciente: pacienteDe(r),
      cobertura: coberturaDe(r),
      diagnostico_codigo: diagnosticoDe(r)?.codigo ?? null,
      locacion: r.locacion,
      items: r.items.map((i, n) => ({ ...itemContenido(i), dispensa: dispensaDe(vida, n + 1) })),
      estado_receta: vida.estado_receta,
      anulacion: vida.anulacion && {
        at: vida.anulacion.at.toISOString(),
        motivo: vida.anulacion.motivo,
      },
      restriccion: subtipo ? LEYENDA_SUBTIPO[subtipo] : null,
      content_sha256: recetaContentHash(r),
      verification_url: this.enlaces.url(r.cuir),
    };
  }

  private async delCiudadano(cuil: string, cuir: string, tipo: string): Promise<Receta> {
    const r = await this.recetas.findByCuir(cuir);
    if (!r || !isValidCuil(cuil) || !cuilMatchesDocumento(cuil, r.documento_paciente)) {
      // Logged against the CUIR asked for, never the CUIL.
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
    const { cuir, id_transaccion: idTransaccion } = r;
    return this.auditoria.record({ tipo, cuir, idTransaccion, actor, resultado });
  }
}

/** What a dispensation not reversed gave of item `item` (at most one exists), or null. */
function dispensaDe(vida: VidaReceta, item: number): RecetaPdfDispensa | null {
  for (const d of vida.dispensas.filter((d) => !d.revertida)) {
    const i = d.items.find((x) => x.item === item);
    if (i) {
      const { cantidad, codigo, sustituido } = i;
      const fecha = d.fecha_dispensa.toISOString();
      return { cantidad, farmacia: d.farmacia.nombre, fecha, codigo, sustituido };
    }
  }
  return null;
}
