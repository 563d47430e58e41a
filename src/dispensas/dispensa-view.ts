import type { EstadoReceta } from '../recetas/recetas.public.js';
import type { DispensaDto } from './dto/dispensa.dto.js';
import type { DispensaItemEntity } from './entities/dispensa-item.entity.js';
import type { DispensaEntity } from './entities/dispensa.entity.js';

/** A dispensation as its dispenser reads it, with the prescription's names and quantities. */
export function dispensaView(
  d: DispensaEntity,
  items: ReadonlyArray<Pick<DispensaItemEntity, 'item' | 'cantidad' | 'codigo' | 'sustituido'>>,
  receta: {
    cuir: string;
    items: ReadonlyArray<{ nombre: string; cantidad: number; codigo?: string; dci?: string }>;
  },
  estado: EstadoReceta,
): DispensaDto {
  return {
    id_dispensa: d.id,
    cuir: receta.cuir,
    estado_receta: estado,
    fecha_dispensa: d.fecha_dispensa.toISOString(),
    farmacia: { cuit: d.farmacia_cuit, nombre: d.farmacia_nombre },
    items: [...items]
      .sort((a, b) => a.item - b.item)
      .map((i) => {
        const prescrito = receta.items[i.item - 1];
        return {
          item: i.item,
          nombre: prescrito?.nombre ?? '',
          ...(prescrito?.dci ? { dci: prescrito.dci } : {}),
          ...(prescrito?.codigo ? { codigo_prescrito: prescrito.codigo } : {}),
          cantidad_prescrita: prescrito?.cantidad ?? i.cantidad,
          cantidad_dispensada: i.cantidad,
          ...(i.codigo ? { codigo: i.codigo } : {}),
          sustituido: i.sustituido,
        };
      }),
    registrada_at: d.created_at.toISOString(),
    revertida: d.revertida,
    revertida_at: d.revertida_at ? d.revertida_at.toISOString() : null,
    motivo_reversion: d.motivo_reversion,
  };
}
