import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Transactions } from '../database/transactions.js';
import type { StoredMedicamento } from './medicamento-mapping.js';
import { searchStatement } from './busqueda.sql.js';
import { EXISTING_CODES_SQL } from './codigos.sql.js';
import { CatalogoSyncStateEntity } from './entities/catalogo-sync-state.entity.js';
import { MedicamentoEntity } from './entities/medicamento.entity.js';

export interface SearchPage {
  total: number;
  rows: StoredMedicamento[];
}

/** The read side of the catalogue mirror (the sync writes through MirrorSyncRepository). */
@Injectable()
export class MedicamentosRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly transactions: Transactions,
  ) {}

  /** A page of the search, on the read replica when there is one: the catalogue tolerates lag. */
  async search(normalized: string, limit: number, offset: number): Promise<SearchPage> {
    const rows = await this.transactions.onReplica(() =>
      this.runSearch<Array<StoredMedicamento & { total: number }>>('', normalized, limit, offset),
    );
    const total = rows[0]?.total ?? 0;
    // A page past the end still carries the total, in one row with no item.
    return { total, rows: rows.filter((r) => r.code !== null) };
  }

  /** The plan of search() for this query, run exactly as search() runs it (tests, operators). */
  async explainSearch(normalized: string, options = 'COSTS'): Promise<string> {
    const plan = `EXPLAIN (${options}) `;
    const rows = await this.runSearch<Array<{ 'QUERY PLAN': string }>>(plan, normalized, 20, 0);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  private runSearch<T>(prefix: string, normalized: string, limit: number, offset: number) {
    const { sql, params, preferIndex } = searchStatement(normalized, limit, offset);
    const manager = this.transactions.manager;
    if (!preferIndex) return manager.query<T>(prefix + sql, params);
    return manager.transaction(async (m) => {
      await m.query(preferIndex);
      return m.query<T>(prefix + sql, params);
    });
  }

  async findByCode(code: string): Promise<StoredMedicamento | undefined> {
    const found = await this.db.getRepository(MedicamentoEntity).findOne({
      where: { code },
      select: {
        code: true,
        nombre: true,
        principio_activo: true,
        droga: true,
        dosis: true,
        posologia: true,
        presentacion: true,
        coberturas: true,
      },
    });
    return found ?? undefined;
  }

  /** Which of `codes` the mirror holds. */
  async existingCodes(codes: string[]): Promise<string[]> {
    const rows: Array<{ code: string }> = await this.db.query(EXISTING_CODES_SQL, [codes]);
    return rows.map((r) => r.code);
  }

  /** Whether any catalogue sync ever completed (its state row exists). */
  async everSynced(): Promise<boolean> {
    return this.db.getRepository(CatalogoSyncStateEntity).exists();
  }

  async isEmpty(): Promise<boolean> {
    return !(await this.db.getRepository(MedicamentoEntity).exists());
  }
}
