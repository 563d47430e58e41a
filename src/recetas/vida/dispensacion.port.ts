/**
 * What recetas needs to know about dispensation, which the dispensas module owns: recetas
 * declares it here and dispensas provides it (DispensasModule is global and exports
 * `{ provide: DispensacionPort, useExisting: … }`), so recetas reads the dispensation state of
 * a prescription without importing dispensas and no module cycle exists. Called inside
 * Transactions.run, the reads join the transaction (and see what its lock protects).
 */

/** One dispensation of a prescription, as its detail shows it. */
export interface DispensaDeReceta {
  id: string;
  /** The dispensing client. */
  client_id: string;
  fecha_dispensa: Date;
  farmacia: { cuit: string; nombre: string };
  items: Array<{ item: number; cantidad: number; codigo: string | null; sustituido: boolean }>;
  revertida: boolean;
  revertida_at: Date | null;
}

/** A reservation that has not lapsed, been released or been consumed. */
export interface ReservaViva {
  id: string;
  /** The holder: never shown to anyone else. */
  client_id: string;
  vence_at: Date;
}

/** What the dispensation module holds of one prescription. */
export interface EstadoDispensacion {
  /** Every dispensation, reversed ones included, oldest first. */
  dispensas: DispensaDeReceta[];
  /** The live reservation, if any. */
  reserva: ReservaViva | null;
}

export abstract class DispensacionPort {
  /** The prescription's dispensations and live reservation, read together (one statement). */
  abstract estado(idTransaccion: string): Promise<EstadoDispensacion>;
}
