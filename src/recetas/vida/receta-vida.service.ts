import { Injectable } from '@nestjs/common';
import type { Receta } from '../receta.js';
import { DispensacionPort } from './dispensacion.port.js';
import { vidaDe, VidaReceta } from './receta-vida.js';
import { argentinaDate } from './vigencia.js';

/** A prescription's life (contract §7) now: its row with what the dispensation port knows. */
@Injectable()
export class RecetaVidaService {
  constructor(private readonly dispensacion: DispensacionPort) {}

  async vida(r: Receta, now = new Date()): Promise<VidaReceta> {
    const { dispensas, reserva } = await this.dispensacion.estado(r.id_transaccion);
    return vidaDe(r, dispensas, reserva, argentinaDate(now));
  }
}
