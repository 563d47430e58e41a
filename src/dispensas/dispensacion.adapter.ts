import { Injectable } from '@nestjs/common';
import {
  DispensacionPort,
  DispensaDeReceta,
  EstadoDispensacion,
} from '../recetas/recetas.public.js';
import { DispensasRepository } from './dispensas.repository.js';
import type { DispensaConItems } from './dispensas.repository.js';

/** A dispensation as recetas' port describes it. */
export function dispensaDeReceta({ dispensa: d, items }: DispensaConItems): DispensaDeReceta {
  return {
    id: d.id,
    client_id: d.client_id,
    fecha_dispensa: d.fecha_dispensa,
    farmacia: { cuit: d.farmacia_cuit, nombre: d.farmacia_nombre },
    items: items.map((i) => ({
      item: i.item,
      cantidad: i.cantidad,
      codigo: i.codigo,
      sustituido: i.sustituido,
    })),
    revertida: d.revertida,
    revertida_at: d.revertida_at,
  };
}

/**
 * recetas' DispensacionPort, answered from this module's tables (DispensasModule provides it
 * under the port's token, globally). Inside Transactions.run the read joins the transaction.
 */
@Injectable()
export class DispensacionAdapter extends DispensacionPort {
  constructor(private readonly dispensasRepo: DispensasRepository) {
    super();
  }

  estado(idTransaccion: string): Promise<EstadoDispensacion> {
    return this.dispensasRepo.estado(idTransaccion);
  }
}
