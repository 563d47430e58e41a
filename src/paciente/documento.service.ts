import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { publicBaseUrl } from '../config/core-config.js';
import { parseCuir } from '../cuir/cuir-format.js';
import { ProfesionalService } from '../profesional/profesional.service.js';
import { recetaContentHash } from '../recetas/receta-content-hash.js';
import { Receta, RecetasService } from '../recetas/recetas.service.js';
import { pdfFonts } from './pdf/pdf-fonts.js';
import { renderRecetaPdf } from './receta-pdf.js';
import { jurisdiccionOf, verificationUrl } from './receta-pdf-view.js';

/** The printable prescription (contract §8): one A4 page, rendered on request from its data. */
@Injectable()
export class DocumentoService implements OnApplicationBootstrap {
  constructor(
    private readonly recetas: RecetasService,
    private readonly profesional: ProfesionalService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Parses the fonts now, so the first document is not the slow one. */
  onApplicationBootstrap(): void {
    pdfFonts();
  }

  async render(r: Receta): Promise<Buffer> {
    const vida = await this.recetas.vida(r);
    const parsed = parseCuir(r.cuir);
    const jurisdiccion = parsed.ok ? parsed.components.jurisdiction : r.cuir.slice(8, 10);
    return renderRecetaPdf({
      cuir: r.cuir,
      fecha_creacion: r.fecha_creacion.toISOString(),
      vigencia_desde: vida.vigencia_desde,
      vigencia_hasta: vida.vigencia_hasta,
      matricula_profesional: r.matricula_profesional,
      jurisdiccion: jurisdiccionOf(jurisdiccion),
      profesional_nombre: await this.profesional.nombreDe(r.matricula_profesional, jurisdiccion),
      documento_paciente: r.documento_paciente,
      locacion: r.locacion,
      items: r.items.map((i) => ({ nombre: i.nombre, cantidad: i.cantidad, codigo: i.codigo })),
      estado_receta: vida.estado_receta,
      anulacion: vida.anulacion && {
        at: vida.anulacion.at.toISOString(),
        motivo: vida.anulacion.motivo,
      },
      content_sha256: recetaContentHash(r),
      verification_url: verificationUrl(publicBaseUrl(this.config), r.cuir),
    });
  }
}
