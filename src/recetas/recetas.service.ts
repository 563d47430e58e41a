import { Injectable } from '@nestjs/common';
import type { RecetaEntity, RecetaItem } from './entities/receta.entity.js';
import { RecetasRepository } from './recetas.repository.js';
import type { DispensaDeReceta, ReservaViva } from './vida/dispensacion.port.js';
import { vidaDe } from './vida/receta-vida.js';
import type { VidaReceta } from './vida/receta-vida.js';
import { argentinaDate } from './vida/vigencia.js';
import { RecetaVidaService } from './vida/receta-vida.service.js';

/** A registered prescription as other modules see it (they never import its entity). */
export type Receta = RecetaEntity;
export type { RecetaItem };
// The content's views (SPEC 9.2), the same for every module that shows it.
export {
  coberturaDe,
  contenidoVisible,
  diagnosticoDe,
  itemContenido,
  pacienteDe,
} from './contenido/contenido.js';
export type { Cobertura, Diagnostico, ItemContenido, Paciente } from './contenido/contenido.js';

/**
 * The recetas module's face to other modules (verification, dispensation, the patient's
 * access): what they may read or do to a prescription. They never reach its repository.
 */
@Injectable()
export class RecetasService {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly vidas: RecetaVidaService,
  ) {}

  /** The prescription with this CUIR, whoever registered it. */
  findByCuir(cuir: string): Promise<Receta | null> {
    return this.recetas.findByCuir(cuir);
  }

  /** The prescription with this id_transaccion, whoever registered it. */
  findById(id: string): Promise<Receta | null> {
    return /^\d{1,18}$/.test(id) ? this.recetas.findById(id) : Promise.resolve(null);
  }

  /**
   * The prescription, locked until the running transaction ends (call inside
   * Transactions.run, first): dispensations, reservations, reversals and the cancellation of a
   * prescription each take this lock, so they happen one at a time per prescription.
   */
  lockForUpdate(ref: { id_transaccion: string } | { cuir: string }): Promise<Receta | null> {
    return this.recetas.lockForUpdate(ref);
  }

  /** Its life now: estado_receta, the window, the cancellation, dispensations, reservation. */
  vida(r: Receta, now?: Date): Promise<VidaReceta> {
    return this.vidas.of(r, now);
  }

  /**
   * Its life from dispensations and a reservation already in hand (no read): the state a
   * change made under the row's lock leads to, computed as `vida` would read it afterwards.
   */
  vidaCon(
    r: Receta,
    dispensas: DispensaDeReceta[],
    reserva: ReservaViva | null,
    now = new Date(),
  ): VidaReceta {
    return vidaDe(r, dispensas, reserva, argentinaDate(now));
  }
}
