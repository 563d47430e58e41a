import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { CuirComponents } from './cuir-format.js';

export const UNIQUE_GROUP_ITEM_INDEX = 'issued_cuirs_unique_group_item';

/**
 * The issued-CUIR ledger and the CUIRs' owners (entities IssuedCuirEntity, CuirOwnerEntity).
 * Recording an issuance is one SQL statement: claiming the owner and writing the ledger row
 * together is what keeps two clients from both getting one CUIR.
 */
@Injectable()
export class IssuedCuirsRepository {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Records one issuance to `clientId` and returns true, or returns false (recording nothing)
   * when the CUIR belongs to another client. One statement: the owner row is claimed, or the
   * existing one locked and read, so two clients issuing one CUIR at once cannot both get it.
   * A second issuance under the uniqueness policy fails on the partial unique index.
   */
  async record(
    clientId: string,
    cuir: string,
    c: CuirComponents,
    enforceUnique: boolean,
  ): Promise<boolean> {
    const rows = await this.transactions.manager.query<unknown[]>(
      `WITH owner AS (
         INSERT INTO cuir_owners (cuir, client_id) VALUES ($2, $1)
         ON CONFLICT (cuir) DO UPDATE SET cuir = EXCLUDED.cuir
         RETURNING client_id)
       INSERT INTO issued_cuirs (client_id, cuir, platform, repository, jurisdiction,
         prescription_type, medication_type, group_id, item_id, uniqueness_enforced)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM owner WHERE owner.client_id = $1
       RETURNING id`,
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
    return rows.length > 0;
  }
}
