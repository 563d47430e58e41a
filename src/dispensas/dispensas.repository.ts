import { Injectable } from '@nestjs/common';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import { Transactions } from '../database/transactions.js';
import type { EstadoDispensacion } from '../recetas/recetas.public.js';
import {
  type DispensaInsert,
  ESTADO_DISPENSACION_SQL,
  type EstadoDispensacionRow,
  insertDispensaSql,
} from './dispensas.sql.js';
import { DispensaItemEntity } from './entities/dispensa-item.entity.js';
import { DispensaEntity } from './entities/dispensa.entity.js';

/** The unique index that keeps an item from being dispensed twice (see the migration). */
export const ITEM_UNA_VEZ_INDEX = 'dispensa_items_una_vez';

/** A dispensation with its items. */
export interface DispensaConItems {
  dispensa: DispensaEntity;
  items: DispensaItemEntity[];
}

/**
 * Dispensations and their items. The dispensation's hot path (the state read and the write)
 * runs the fixed SQL of dispensas.sql.ts; the rest goes through the entities.
 */
@Injectable()
export class DispensasRepository {
  constructor(private readonly transactions: Transactions) {}

  private get dispensas() {
    return this.transactions.repository(DispensaEntity);
  }

  private get items() {
    return this.transactions.repository(DispensaItemEntity);
  }

  /**
   * The dispensation, its items, its dispenser's live reservation consumed and the companions,
   * in one statement (dispensas.sql.ts); a unique violation on ITEM_UNA_VEZ_INDEX if an item
   * was dispensed already (then nothing is written).
   */
  async insert(d: DispensaInsert, companions: CompanionStatement[]): Promise<DispensaConItems> {
    const { sql, values } = insertDispensaSql(d, companions);
    const rows = await this.transactions.prepared<{ created_at: Date }>(sql, values);
    const { items, ...fields } = d;
    return {
      dispensa: {
        ...fields,
        created_at: rows[0].created_at,
        revertida: false,
        revertida_at: null,
        motivo_reversion: null,
      },
      items: items.map((i) => ({
        ...i,
        id_dispensa: d.id,
        id_transaccion: d.id_transaccion,
        revertida: false,
      })),
    };
  }

  findForClient(id: string, clientId: string): Promise<DispensaEntity | null> {
    return this.dispensas.findOneBy({ id, client_id: clientId });
  }

  itemsOf(idDispensa: string): Promise<DispensaItemEntity[]> {
    return this.items.find({ where: { id_dispensa: idDispensa }, order: { item: 'ASC' } });
  }

  /** A prescription's dispensations (oldest first, reversed ones included) and live reservation. */
  async estado(idTransaccion: string): Promise<EstadoDispensacion> {
    const rows = await this.transactions.prepared<EstadoDispensacionRow>(ESTADO_DISPENSACION_SQL, [
      idTransaccion,
    ]);
    const { dispensas, reserva } = rows[0];
    return {
      dispensas: dispensas.map((d) => ({
        ...d,
        fecha_dispensa: new Date(d.fecha_dispensa),
        revertida_at: d.revertida_at === null ? null : new Date(d.revertida_at),
      })),
      reserva: reserva && { ...reserva, vence_at: new Date(reserva.vence_at) },
    };
  }

  /** Whether it was recorded within the last `hours` (the database's clock). */
  async withinHours(id: string, hours: number): Promise<boolean> {
    const row = await this.dispensas
      .createQueryBuilder('d')
      .select(`d.created_at + :hours * interval '1 hour' >= statement_timestamp()`, 'ok')
      .where({ id })
      .setParameter('hours', hours)
      .getRawOne<{ ok: boolean }>();
    return row?.ok === true;
  }

  /**
   * Reverses it (once). Its items follow by the foreign key's ON UPDATE CASCADE, leaving the
   * single-dispensation index, so they are dispensable again.
   */
  async revert(id: string, motivo: string): Promise<void> {
    await this.dispensas
      .createQueryBuilder()
      .update()
      .set({
        revertida: true,
        revertida_at: () => 'statement_timestamp()',
        motivo_reversion: motivo,
      })
      .where({ id, revertida: false })
      .execute();
  }
}
