import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { RecetasRepository } from '../recetas.repository.js';
import { CifradoPaciente } from './cifrado-paciente.js';
import { DatoPacienteIlegible } from './datos-paciente.js';

/**
 * At start, the newest sealed document must open under PATIENT_DATA_KEYS: a wrong key set stops
 * the start naming the key id, rather than answering 500 on every read.
 */
@Injectable()
export class ClavesPacienteCheck implements OnApplicationBootstrap {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly cifrado: CifradoPaciente,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const r = await this.recetas.ultimoSellado();
    if (!r) return;
    try {
      this.cifrado.abrirDocumento(r);
    } catch (err) {
      if (!(err instanceof DatoPacienteIlegible)) throw err;
      throw new Error(`PATIENT_DATA_KEYS cannot open the stored patient data: ${err.message}`);
    }
  }
}
