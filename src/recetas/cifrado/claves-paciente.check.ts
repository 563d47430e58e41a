import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { RecetasRepository } from '../recetas.repository.js';
import { CifradoPaciente } from './cifrado-paciente.js';
import { DatoPacienteIlegible } from './datos-paciente.js';

/**
 * At start, the newest sealed document must open under PATIENT_DATA_KEYS: a key set that is
 * not the one the data was sealed with (a wrong deployment, a typo in a key) stops the start
 * with the key id named, rather than answering 500 on every read. A key dropped too early
 * (older rows still under it) is found only by reading them: those reads fail with 500 and a
 * log naming the key; `pacientes cifrar` before dropping a key prevents it.
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
      this.cifrado.documento(r);
    } catch (err) {
      if (!(err instanceof DatoPacienteIlegible)) throw err;
      throw new Error(`PATIENT_DATA_KEYS cannot open the stored patient data: ${err.message}`);
    }
  }
}
