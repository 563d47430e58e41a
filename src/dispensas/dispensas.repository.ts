import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Transactions } from '../database/transactions.js';
import { DispensaItemEntity } from './entities/dispensa-item.entity.js';
import { DispensaEntity } from './entities/dispensa.entity.js';

/** The unique index that keeps an item from being dispensed twice (see the migration). */
export const ITEM_UNA_VEZ_INDEX = 'dispensa_items_una_vez';

export type NuevaDispensa = Pick<
  DispensaEntity,
  | 'id_transaccion'
  | 'client_id'
  | 'farmacia_cuit'
  | 'farmacia_nombre'
  | 'fecha_dispensa'
  | 'reserva_id'
>;
export type NuevoItem = Pick<DispensaItemEntity, 'item' | 'cantidad' | 'codigo' | 'sustituido'>;

/** A dispensation with its items. */
export interface DispensaConItems {
  dispensa: DispensaEntity;
  items: DispensaItemEntity[];
}

/** Dispensations and their items. */
@Injectable()
export class DispensasRepository {
  constructor(private readonly transactions: Transactions) {}

  private get dispensas() {
    return this.transactions.repository(DispensaEntity);
  }

  private get items() {
    return this.transactions.repository(DispensaItemEntity);
  }

  /** The dispensation and its items; a unique violation on ITEM_UNA_VEZ_INDEX if one is taken. */
  async insert(d: NuevaDispensa, items: NuevoItem[]): Promise<DispensaConItems> {
    const dispensa = await this.dispensas.save(this.dispensas.create(d));
    const rows = items.map((i) =>
      this.items.create({ ...i, id_dispensa: dispensa.id, id_transaccion: d.id_transaccion }),
    );
    await this.items.insert(rows);
    return { dispensa, items: rows };
  }

  findForClient(id: string, clientId: string): Promise<DispensaEntity | null> {
    return this.dispensas.findOneBy({ id, client_id: clientId });
  }

  itemsOf(idDispensa: string): Promise<DispensaItemEntity[]> {
    return this.items.find({ where: { id_dispensa: idDispensa }, order: { item: 'ASC' } });
  }

  /** A prescription's dispensations with their items, oldest first (reversed ones included). */
  async listForReceta(idTransaccion: string): Promise<DispensaConItems[]> {
    const dispensas = await this.dispensas.find({
      where: { id_transaccion: idTransaccion },
      order: { created_at: 'ASC', id: 'ASC' },
    });
    if (dispensas.length === 0) return [];
    const items = await this.items.find({
      where: { id_dispensa: In(dispensas.map((d) => d.id)) },
      order: { item: 'ASC' },
    });
    return dispensas.map((dispensa) => ({
      dispensa,
      items: items.filter((i) => i.id_dispensa === dispensa.id),
    }));
  }

  /** Whether it was recorded within the last `hours` (the database's clock). */
  async withinHours(id: string, hours: number): Promise<boolean> {
    const rows: Array<{ ok: boolean }> = await this.transactions.manager.query(
      `SELECT created_at + $2 * interval '1 hour' >= statement_timestamp() AS ok
         FROM dispensas WHERE id = $1`,
      [id, hours],
    );
    return rows[0]?.ok === true;
  }

  /**
   * Reverses it (once). Its items follow by the foreign key's ON UPDATE CASCADE, leaving the
   * single-dispensation index, so they are dispensable again.
   */
  async revert(id: string, motivo: string): Promise<void> {
    await this.transactions.manager.query(
      `UPDATE dispensas SET revertida = true, revertida_at = statement_timestamp(),
              motivo_reversion = $2
        WHERE id = $1 AND NOT revertida`,
      [id, motivo],
    );
  }
}
