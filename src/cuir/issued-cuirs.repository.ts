import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { CuirComponents } from './cuir-format.js';
import { ISSUE_CUIR_SQL } from './issue-cuir.sql.js';

export const UNIQUE_GROUP_ITEM_INDEX = 'issued_cuirs_unique_group_item';

/**
 * The issued-CUIR ledger and the CUIRs' owners (entities IssuedCuirEntity, CuirOwnerEntity).
 * Claiming the owner and writing the ledger row happen in one statement (issue-cuir.sql.ts): the
 * claim locks the owner row until it ends, which is what keeps two clients from both getting one
 * CUIR.
 */
@Injectable()
export class IssuedCuirsRepository {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Records one issuance to `clientId` and returns true, or returns false (recording nothing)
   * when the CUIR belongs to another client. The owner row is claimed, or the existing one
   * locked and read (ON CONFLICT DO UPDATE), so two clients issuing one CUIR at once cannot
   * both get it. A second issuance under the uniqueness policy fails on the partial unique
   * index, and takes the claim back with it.
   */
  async record(
    clientId: string,
    cuir: string,
    c: CuirComponents,
    enforceUnique: boolean,
  ): Promise<boolean> {
    const [row] = await this.transactions.prepared<{ owned: boolean }>(ISSUE_CUIR_SQL, [
      ...[cuir, clientId, c.platform, c.repository, c.jurisdiction, c.prescriptionType],
      ...[c.medicationType, c.groupId, c.itemId, enforceUnique],
    ]);
    return row.owned;
  }
}
