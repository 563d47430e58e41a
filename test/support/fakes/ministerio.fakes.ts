import {
  AnulacionPuntero,
  MinisterioClient,
  MinisterioReceipt,
  Puntero,
} from '../../../src/ministerio/ministerio.client.js';

/** A ministry that answers from a script, one entry per call (pointers and cancellations). */
export class ScriptedMinisterio extends MinisterioClient {
  readonly delivered: Puntero[] = [];
  readonly cancelled: AnulacionPuntero[] = [];
  constructor(private readonly script: Array<MinisterioReceipt | Error>) {
    super();
  }
  deliver(pointer: Puntero): Promise<MinisterioReceipt> {
    this.delivered.push(pointer);
    return this.next();
  }
  anular(anulacion: AnulacionPuntero): Promise<MinisterioReceipt> {
    this.cancelled.push(anulacion);
    return this.next();
  }
  private next(): Promise<MinisterioReceipt> {
    const next = this.script.shift();
    if (!next) throw new Error('the script ran out');
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  }
}
