import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { DomainError } from '../common/errors/domain-error.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/settings.js';
import { parseCuir } from '../cuir/cuir.public.js';
import { ProfesionalService } from '../profesional/profesional.service.js';
import { recetaContentHash, type VidaReceta } from '../recetas/recetas.public.js';
import {
  coberturaDe,
  diagnosticoDe,
  itemContenido,
  LEYENDA_SUBTIPO,
  pacienteDe,
  Receta,
  RecetasService,
  subtipoRestringido,
} from '../recetas/recetas.service.js';
import { pacienteSettings } from './paciente.settings.js';
import type { PacienteSettings } from './paciente.settings.js';
import {
  RenderPool,
  RenderPoolClosed,
  RenderPoolFull,
  renderWorkerFile,
} from './pdf/render-pool.js';
import type { RecetaPdfDispensa, RecetaPdfView } from './receta-pdf-view.js';
import { jurisdiccionOf } from './receta-pdf-view.js';
import { EnlacesPublicos } from '../publico/enlaces-publicos.service.js';

/** A refused render is retried soon: renders last tens of milliseconds. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The printable prescription (contract §8): one A4 page, rendered on request from its data.
 * The data is read first (each query returns its connection to the pool at once: nothing is
 * held while a render waits), then the page is drawn in a worker thread (PDF_RENDERS_MAX at
 * once, PDF_RENDERS_QUEUE waiting, the rest 503 with Retry-After), so rendering never stalls
 * the event loop the other requests share.
 */
@Injectable()
export class DocumentoService implements OnModuleDestroy {
  private readonly pool: RenderPool;

  constructor(
    private readonly recetas: RecetasService,
    private readonly profesional: ProfesionalService,
    private readonly enlaces: EnlacesPublicos,
    @InjectSettings(pacienteSettings) settings: PacienteSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    const log = logger.child({ component: 'paciente' });
    // The workers start with the first document, not with the service: each holds its own heap
    // and fonts (about 25 MB), which an instance that never renders should not carry.
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

  async render(r: Receta): Promise<Buffer> {
    const view = await this.view(r);
    try {
      return await this.pool.render(view);
    } catch (err) {
      if (err instanceof RenderPoolFull || err instanceof RenderPoolClosed) {
        throw new DomainError(
          'SERVICE_UNAVAILABLE',
          'Too many documents are being rendered; retry shortly',
          undefined,
          { cause: err, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
        );
      }
      throw err;
    }
  }

  private async view(r: Receta): Promise<RecetaPdfView> {
    const vida = await this.recetas.vida(r);
    const parsed = parseCuir(r.cuir);
    const jurisdiccion = parsed.ok ? parsed.components.jurisdiction : r.cuir.slice(8, 10);
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
      restriccion: restriccionDe(r.cuir),
      content_sha256: recetaContentHash(r),
      verification_url: this.enlaces.url(r.cuir),
    };
  }
}

/** The mark of a restricted prescription (SPEC 9.3), or null. */
function restriccionDe(cuir: string): string | null {
  const subtipo = subtipoRestringido(cuir);
  return subtipo ? LEYENDA_SUBTIPO[subtipo] : null;
}

/** What a dispensation not reversed gave of item `item` (at most one exists), or null. */
function dispensaDe(vida: VidaReceta, item: number): RecetaPdfDispensa | null {
  for (const d of vida.dispensas) {
    if (d.revertida) continue;
    const i = d.items.find((x) => x.item === item);
    if (i)
      return {
        cantidad: i.cantidad,
        farmacia: d.farmacia.nombre,
        fecha: d.fecha_dispensa.toISOString(),
        codigo: i.codigo,
        sustituido: i.sustituido,
      };
  }
  return null;
}
