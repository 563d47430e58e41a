import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CuirComponents } from './cuir-format.js';

export const UNIQUE_GROUP_ITEM_INDEX = 'issued_cuirs_unique_group_item';

/** SQL of the issued-CUIR ledger. */
@Injectable()
export class IssuedCuirsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Inserts one issuance; a second one under the policy fails on the partial unique index. */
  async record(
    clientId: string,
    cuir: string,
    c: CuirComponents,
    enforceUnique: boolean,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO issued_cuirs (client_id, cuir, platform, repository, jurisdiction,
         prescription_type, medication_type, group_id, item_id, uniqueness_enforced)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        clientId,
        cuir,
        c.platform,
        c.repository,
        c.jurisdiction,
        c.prescriptionType,
        c.medicationType,
        c.groupId,
        c.itemId,
        enforceUnique,
      ],
    );
  }
}
