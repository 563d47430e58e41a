/**
 * What recetas needs of dispensation, which dispensas owns and provides (docs/architecture.md,
 * "Data another module owns"): no module cycle. Inside Transactions.run the reads join it.
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
  reserva: ReservaViva | null;
}

export abstract class DispensacionPort {
  /** The prescription's dispensations and live reservation, in one statement. */
  abstract estado(idTransaccion: string): Promise<EstadoDispensacion>;
}
