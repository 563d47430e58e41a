import { Injectable } from '@nestjs/common';
import { ID_TRANSACCION } from '../common/validation/patterns.js';
import type { RecetaItem } from './entities/receta.entity.js';
import type { Receta } from './receta.js';
import type { FiltroRestringidas } from './consulta/restringidas.js';
import { Transactions } from '../database/transactions.js';
import { RecetasRepository } from './recetas.repository.js';
import { vidaDe, type VidaReceta } from './vida/receta-vida.js';
import { argentinaDate } from './vida/vigencia.js';
import { DispensacionPort } from './vida/dispensacion.port.js';

export type { Receta } from './receta.js';
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
export type { FiltroRestringidas } from './consulta/restringidas.js';
export type { VidaReceta } from './vida/receta-vida.js';
export {
  jurisdiccionDe,
  LEYENDA_SUBTIPO,
  SUBTIPOS_RESTRINGIDOS,
  subtipoRestringido,
  type SubtipoRestringido,
} from './contenido/restringida.js';

/** The recetas module's face to other modules: what they may read or do to a prescription. */
@Injectable()
export class RecetasService {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly dispensacion: DispensacionPort,
    private readonly transactions: Transactions,
  ) {}

  /** The prescription with this CUIR, whoever registered it. */
  findByCuir(cuir: string): Promise<Receta | null> {
    return this.recetas.findByCuir(cuir);
  }

  /** The same, read on the replica (SPEC 10: lag tolerated); a miss there is asked of the primary. */
  async findByCuirFromReplica(cuir: string): Promise<Receta | null> {
    const found = await this.transactions.onReplica(() => this.recetas.findByCuir(cuir));
    if (found || !this.transactions.hasReplica) return found;
    return this.recetas.findByCuir(cuir);
  }

  /** The prescription with this id_transaccion, whoever registered it. */
  findById(id: string): Promise<Receta | null> {
    return ID_TRANSACCION.test(id) ? this.recetas.findById(id) : Promise.resolve(null);
  }

  /** The prescription, locked until the running transaction ends (inside Transactions.run, first). */
  lockForUpdate(ref: { id_transaccion: string } | { cuir: string }): Promise<Receta | null> {
    return this.recetas.lockForUpdate(ref);
  }

  /** The health authority's restricted prescriptions and exact count (SPEC 9.3); none without a jurisdiction. */
  restringidas(f: FiltroRestringidas): Promise<{ rows: Receta[]; total: number }> {
    if (f.jurisdicciones.length === 0) return Promise.resolve({ rows: [], total: 0 });
    return this.recetas.restringidas(f);
  }

  /** Its life now: estado_receta, the window, the cancellation, dispensations, reservation. */
  async vida(r: Receta, now = new Date()): Promise<VidaReceta> {
    const { dispensas, reserva } = await this.dispensacion.estado(r.id_transaccion);
    return vidaDe(r, dispensas, reserva, argentinaDate(now));
  }
}
