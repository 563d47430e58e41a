import { Injectable } from '@nestjs/common';
import { Between } from 'typeorm';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import { Transactions } from '../database/transactions.js';
import { recordVerificacionSql } from './verificacion.sql.js';
import { VerificacionCuirEntity } from './verificacion-cuir.entity.js';

export type VerificacionRecord = Pick<
  VerificacionCuirEntity,
  'verifier_client_id' | 'cuir' | 'id_transaccion' | 'owner_client_id' | 'found'
>;

/** The audit trail of verifications by CUIR. */
@Injectable()
export class VerificacionesRepository {
  constructor(private readonly transactions: Transactions) {}

  private get verificaciones() {
    return this.transactions.repository(VerificacionCuirEntity);
  }

  /** The verification and its companion statements (the event log's entry), in one statement. */
  async record(v: VerificacionRecord, companions: CompanionStatement[]): Promise<void> {
    const { sql, values } = recordVerificacionSql(v, companions);
    await this.transactions.prepared(sql, values);
  }

  /** Verifications of the owner's prescriptions, newest first. */
  async listForOwner(
    ownerId: string,
    f: { desde: Date; hasta: Date; cuir?: string; limit: number; offset: number },
  ): Promise<{ total: number; items: VerificacionCuirEntity[] }> {
    const [items, total] = await this.verificaciones.findAndCount({
      where: {
        owner_client_id: ownerId,
        at: Between(f.desde, f.hasta),
        ...(f.cuir ? { cuir: f.cuir } : {}),
      },
      order: { at: 'DESC', id: 'DESC' },
      take: f.limit,
      skip: f.offset,
    });
    return { total, items };
  }
}
