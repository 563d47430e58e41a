import {
  diagnosticoDe,
  itemContenido,
  jurisdiccionDe,
  pacienteDe,
  type Receta,
  type SubtipoRestringido,
  type VidaReceta,
} from '../recetas/recetas.service.js';
import type { RecetaFiscalizadaDto } from './dto/receta-fiscalizada.dto.js';

/**
 * A restricted prescription as its health authority reads it (SPEC 9.3): the patient and the
 * diagnosis (never the coverage: the authority audits the prescribing and the dispensing, not
 * the insurer), every item with its dosage, the cancellation and every dispensation, reversed
 * ones included. Pure.
 */
export function recetaFiscalizada(
  r: Receta,
  subtipo: SubtipoRestringido,
  vida: VidaReceta,
): RecetaFiscalizadaDto {
  const paciente = pacienteDe(r);
  return {
    cuir: r.cuir,
    id_transaccion: r.id_transaccion,
    subtipo,
    fecha_creacion: r.fecha_creacion.toISOString(),
    documento_paciente: r.documento_paciente,
    // Registration requires it of a restricted prescription; only one registered before that
    // rule lacks it, and then the document is all the authority gets.
    ...(paciente ? { paciente } : {}),
    diagnostico: diagnosticoDe(r),
    matricula_profesional: r.matricula_profesional,
    jurisdiccion: jurisdiccionDe(r.cuir),
    estado_receta: vida.estado_receta,
    vigencia_desde: vida.vigencia_desde,
    vigencia_hasta: vida.vigencia_hasta,
    items: r.items.map((item, i) => ({ ...itemContenido(item), dispensado: vida.dispensado[i] })),
    anulacion: vida.anulacion
      ? { at: vida.anulacion.at.toISOString(), motivo: vida.anulacion.motivo }
      : null,
    dispensas: vida.dispensas.map((d) => ({
      id_dispensa: d.id,
      fecha_dispensa: d.fecha_dispensa.toISOString(),
      farmacia: d.farmacia,
      items: d.items.map((i) => ({
        item: i.item,
        cantidad_dispensada: i.cantidad,
        codigo: i.codigo,
        sustituido: i.sustituido,
      })),
      revertida: d.revertida,
      revertida_at: d.revertida_at ? d.revertida_at.toISOString() : null,
    })),
  };
}
