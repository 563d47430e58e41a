import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options.js';

@Module({})
export class DatabaseModule {
  static forRoot(url: string, poolSize: number, statementTimeoutMs: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(url, poolSize, statementTimeoutMs),
          autoLoadEntities: true,
          // The bootstrap has run the migrations already; fail fast rather than retry forever.
          retryAttempts: 0,
        }),
      ],
    };
  }
}
