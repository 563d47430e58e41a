import { Injectable } from '@nestjs/common';
import { Between } from 'typeorm';
import type { CompanionStatement } from '../common/sql/sql-params.js';
import { Transactions } from '../database/transactions.js';
import { recordVerificacionSql, type VerificacionRow } from './verificacion.sql.js';
import { VerificacionCuirEntity } from './verificacion-cuir.entity.js';

/** The audit trail of verifications by CUIR. */
@Injectable()
export class VerificacionesRepository {
  constructor(private readonly transactions: Transactions) {}

  /** The verification and its companion statements (the event log's entry), in one statement. */
  async record(v: VerificacionRow, companions: CompanionStatement[]): Promise<void> {
    const { sql, values } = recordVerificacionSql(v, companions);
    await this.transactions.prepared(sql, values);
  }

  /** Verifications of the owner's prescriptions, newest first. */
  async listForOwner(
    ownerId: string,
    f: { desde: Date; hasta: Date; cuir?: string; limit: number; offset: number },
  ): Promise<{ total: number; items: VerificacionCuirEntity[] }> {
    const [items, total] = await this.transactions.repository(VerificacionCuirEntity).findAndCount({
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
