import { Injectable, Optional } from '@nestjs/common';
import { UUID } from '../common/validation/patterns.js';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
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
   * (a dispensation asks whether the owner has a webhook) must not wait for a second connection,
   * which, with every pooled connection held by transactions queued on that lock, never came
   * (20 dispensations at once on a pool of 5: 500s after the pool's 5 s).
   */
  private get repo(): Repository<ApiClientEntity> {
    return this.transactions?.active ? this.transactions.repository(ApiClientEntity) : this.pooled;
  }

  findByKey(key: string): Promise<ApiClientEntity | null> {
    return this.repo.findOneBy({ key });
  }

  /** By id or by public key: what an operator types into the credentials tool. */
  findByIdOrKey(ref: string): Promise<ApiClientEntity | null> {
    const isUuid = UUID.test(ref);
    return isUuid ? this.repo.findOneBy({ id: ref }) : this.repo.findOneBy({ key: ref });
  }

  findActiveByName(name: string): Promise<ApiClientEntity | null> {
    return this.repo.findOneBy({ name, active: true });
  }

  /** Whether any client, active or revoked, was ever given this name. */
  existsByName(name: string): Promise<boolean> {
    return this.repo.existsBy({ name });
  }

  findByIds(ids: string[]): Promise<ApiClientEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo.findBy({ id: In(ids) });
  }

  list(): Promise<ApiClientEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }

  save(client: ApiClientEntity): Promise<ApiClientEntity> {
    return this.repo.save(client);
  }

  create(fields: Partial<ApiClientEntity>): ApiClientEntity {
    return this.repo.create(fields);
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    // A bare UPDATE: bookkeeping, not a change of the client (updated_at stays).
    await this.repo.query('UPDATE api_clients SET last_used_at = $2 WHERE id = $1', [id, at]);
  }
}
