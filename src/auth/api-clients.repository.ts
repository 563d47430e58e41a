import { Injectable, Optional } from '@nestjs/common';
import { UUID } from '../common/validation/patterns.js';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Transactions } from '../database/transactions.js';
import { ApiClientEntity } from './api-client.entity.js';

/** SQL for API clients; nothing domain-specific. */
@Injectable()
export class ApiClientsRepository {
  constructor(
    @InjectRepository(ApiClientEntity) private readonly pooled: Repository<ApiClientEntity>,
    @Optional() private readonly transactions?: Transactions,
  ) {}

  /**
   * Inside a transaction (Transactions.run), its connection: a look-up made under a row lock
   * (a dispensation asks whether the owner has a webhook) must not wait for a second one,
   * which never comes while every pooled connection is held by transactions queued on that lock.
   */
  get repo(): Repository<ApiClientEntity> {
    return this.transactions?.active ? this.transactions.repository(ApiClientEntity) : this.pooled;
  }

  findByKey(key: string): Promise<ApiClientEntity | null> {
    return this.repo.findOneBy({ key });
  }

  /** By id or by public key: what an operator types into the credentials tool. */
  findByIdOrKey(ref: string): Promise<ApiClientEntity | null> {
    return this.repo.findOneBy(UUID.test(ref) ? { id: ref } : { key: ref });
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    // A bare UPDATE: bookkeeping, not a change of the client (updated_at stays).
    await this.repo.query('UPDATE api_clients SET last_used_at = $2 WHERE id = $1', [id, at]);
  }
}
