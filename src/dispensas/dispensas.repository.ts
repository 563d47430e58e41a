import { Injectable } from '@nestjs/common';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import { Transactions } from '../database/transactions.js';
import { DispensacionPort, type EstadoDispensacion } from '../recetas/recetas.public.js';
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

/**
 * Dispensations and their items; also recetas' DispensacionPort (DispensasModule provides it
 * under the port's token). The hot path (the state read, the write) is dispensas.sql.ts's SQL.
 */
@Injectable()
export class DispensasRepository extends DispensacionPort {
  constructor(private readonly transactions: Transactions) {
    super();
  }

  private get dispensas() {
    return this.transactions.repository(DispensaEntity);
  }

  private get items() {
    return this.transactions.repository(DispensaItemEntity);
  }

  /** One statement (insertDispensaSql); a unique violation on ITEM_UNA_VEZ_INDEX writes nothing. */
  async insert(d: DispensaInsert, companions: CompanionStatement[]): Promise<DispensaEntity> {
    const { sql, values } = insertDispensaSql(d, companions);
    const [{ created_at }] = await this.transactions.prepared<{ created_at: Date }>(sql, values);
    const { items: _, ...fields } = d;
    return { ...fields, created_at, revertida: false, revertida_at: null, motivo_reversion: null };
  }

  findForClient(id: string, clientId: string): Promise<DispensaEntity | null> {
    return this.dispensas.findOneBy({ id, client_id: clientId });
  }

  itemsOf(idDispensa: string): Promise<DispensaItemEntity[]> {
    return this.items.find({ where: { id_dispensa: idDispensa }, order: { item: 'ASC' } });
  }

  /** The port's read: a prescription's dispensations and live reservation (inside the transaction). */
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

  /** Reverses it (once); its items follow by ON UPDATE CASCADE, dispensable again. */
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
