import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface VerificationRecord {
  verifierClientId: string;
  cuir: string;
  idTransaccion: string | null;
  ownerClientId: string | null;
  found: boolean;
}

export interface VerificationRow {
  cuir: string;
  id_transaccion: string | null;
  verifier_client_id: string;
  at: Date;
}

/** The audit trail of verifications by CUIR. */
@Injectable()
export class VerificacionesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(v: VerificationRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO verificaciones_cuir (verifier_client_id, cuir, id_transaccion, owner_client_id, found)
       VALUES ($1, $2, $3, $4, $5)`,
      [v.verifierClientId, v.cuir, v.idTransaccion, v.ownerClientId, v.found],
    );
  }

  /** Verifications of the owner's prescriptions, newest first. */
  async listForOwner(
    ownerId: string,
    f: { desde: Date; hasta: Date; cuir?: string; limit: number; offset: number },
  ): Promise<{ total: number; items: VerificationRow[] }> {
    const params: unknown[] = [ownerId, f.desde, f.hasta];
    let where = 'owner_client_id = $1 AND at >= $2 AND at <= $3';
    if (f.cuir) {
      params.push(f.cuir);
      where += ` AND cuir = $${params.length}`;
    }
    const [count, items] = await Promise.all([
      this.db.query<Array<{ total: number }>>(
        `SELECT count(*)::int AS total FROM verificaciones_cuir WHERE ${where}`,
        params,
      ),
      this.db.query<VerificationRow[]>(
        `SELECT cuir, id_transaccion, verifier_client_id, at FROM verificaciones_cuir WHERE ${where}
          ORDER BY at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, f.limit, f.offset],
      ),
    ]);
    return { total: count[0].total, items };
  }
}
