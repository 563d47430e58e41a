import { estadoReceta, EstadoReceta } from './estado-receta.js';
import type { DispensaDeReceta, ReservaViva } from './dispensacion.port.js';
import { enVentana } from './vigencia.js';

/** Its life (contract §7) as the detail, the verification and the patient's view show it. */
export interface VidaReceta {
  estado_receta: EstadoReceta;
  vigencia_desde: string;
  vigencia_hasta: string;
  anulacion: { at: Date; motivo: string } | null;
  /** Per item (index = position − 1): units dispensed by dispensations not reversed. */
  dispensado: number[];
  /** Per item: closed by a dispensation not reversed (at most one can exist per item). */
  cerrado: boolean[];
  dispensas: DispensaDeReceta[];
  reserva: ReservaViva | null;
  /** Today in Argentina time is within the window. */
  en_ventana: boolean;
}

/** Pure: the life of a prescription from its row, its dispensations and reservation, and today. */
export function vidaDe(
  r: {
    items: ReadonlyArray<unknown>;
    vigencia_desde: string;
    vigencia_hasta: string;
    anulada_at: Date | null;
    motivo_anulacion: string | null;
  },
  dispensas: DispensaDeReceta[],
  reserva: ReservaViva | null,
  hoy: string,
): VidaReceta {
  const dispensado = r.items.map(() => 0);
  const cerrado = r.items.map(() => false);
  for (const d of dispensas) {
    if (d.revertida) continue;
    for (const i of d.items) {
      if (i.item < 1 || i.item > r.items.length) continue;
      dispensado[i.item - 1] += i.cantidad;
      cerrado[i.item - 1] = true;
    }
  }
  const anulada = r.anulada_at !== null;
  return {
    estado_receta: estadoReceta({
      anulada,
      items: r.items.length,
      cerrados: cerrado.filter(Boolean).length,
      vigenciaHasta: r.vigencia_hasta,
      hoy,
    }),
    vigencia_desde: r.vigencia_desde,
    vigencia_hasta: r.vigencia_hasta,
    anulacion: anulada ? { at: r.anulada_at!, motivo: r.motivo_anulacion ?? '' } : null,
    dispensado,
    cerrado,
    dispensas,
    reserva,
    en_ventana: enVentana({ desde: r.vigencia_desde, hasta: r.vigencia_hasta }, hoy),
  };
}
