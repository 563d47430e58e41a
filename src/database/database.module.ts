import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { Aperturas } from './particiones/aperturas.js';
import { PoolMetrics } from './pool-metrics.js';
import { Transactions } from './transactions.js';

/** The TypeORM connection (entities registered by each module's forFeature) and Transactions. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(
    url: string,
    poolSize: number,
    statementTimeoutMs: number,
    readUrl?: string,
  ): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(url, poolSize, statementTimeoutMs, [], readUrl),
          autoLoadEntities: true,
          // Fail fast rather than retry forever.
          retryAttempts: 0,
        }),
      ],
      providers: [Transactions, PoolMetrics, Aperturas],
      exports: [Transactions, Aperturas],
    };
  }
}
