import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { CuirComponents } from './cuir-format.js';
import { CuirOwnerEntity } from './entities/cuir-owner.entity.js';
import { IssuedCuirEntity } from './entities/issued-cuir.entity.js';

export const UNIQUE_GROUP_ITEM_INDEX = 'issued_cuirs_unique_group_item';

/**
 * The issued-CUIR ledger and the CUIRs' owners (entities IssuedCuirEntity, CuirOwnerEntity).
 * Claiming the owner and writing the ledger row happen in one transaction: the claim locks the
 * owner row until it ends, which is what keeps two clients from both getting one CUIR.
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
  record(
    clientId: string,
    cuir: string,
    c: CuirComponents,
    enforceUnique: boolean,
  ): Promise<boolean> {
    return this.transactions.run(async () => {
      const claimed = await this.transactions
        .repository(CuirOwnerEntity)
        .createQueryBuilder()
        .insert()
        .values({ cuir, client_id: clientId })
        .orUpdate(['cuir'], ['cuir'])
        .returning(['client_id'])
        .execute();
      const [owner] = claimed.raw as Array<{ client_id: string }>;
      if (owner.client_id !== clientId) return false;
      await this.transactions.repository(IssuedCuirEntity).insert({
        client_id: clientId,
        cuir,
        platform: c.platform,
        repository: c.repository,
        jurisdiction: c.jurisdiction,
        prescription_type: c.prescriptionType,
        medication_type: c.medicationType,
        group_id: c.groupId,
        item_id: c.itemId,
        uniqueness_enforced: enforceUnique,
      });
      return true;
    });
  }
}
