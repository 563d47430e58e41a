import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { CuirComponents } from './cuir-format.js';
import { ISSUE_CUIR_SQL } from './issue-cuir.sql.js';

export const UNIQUE_GROUP_ITEM_INDEX = 'issued_cuirs_unique_group_item';

/** The issued-CUIR ledger and the CUIRs' owners (IssuedCuirEntity, CuirOwnerEntity). */
@Injectable()
export class IssuedCuirsRepository {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Records one issuance to `clientId` and returns true, or returns false (recording nothing)
   * when the CUIR belongs to another client (issue-cuir.sql.ts: the claim locks the owner row).
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
