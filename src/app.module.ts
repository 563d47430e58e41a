import { DynamicModule, Module, type Type } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { Logger } from 'pino';
import { HandlerPipelineInterceptor } from './common/http/handler-pipeline.interceptor.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { MetricsModule } from './common/metrics/metrics.module.js';
import { ResilienceModule } from './common/resilience/resilience.module.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { ParticionesMetrics } from './database/particiones/particiones.metrics.js';
import {
  PARTICIONES_OPTIONS,
  ParticionesScheduler,
} from './database/particiones/particiones.scheduler.js';
import { HealthModule } from './health/health.module.js';
import { QueueModule } from './queue/queue.module.js';
import { MODULE_SLICES } from './slices.js';

/**
 * Each slice's module, in src/slices.ts's order (those only others import have none), loaded
 * here: a slice names it lazily. The classes themselves, not `{ module }` objects: a dynamic
 * module's token differs from its class's, and fiscalizacion, paciente and publico import
 * recetas' and auth's classes, which would then be instantiated twice. One after the other:
 * Jest's ESM runtime (the e2e tests) fails on concurrent imports that share a dependency
 * ("request for … is not in cache").
 */
async function domainModules(): Promise<Type<unknown>[]> {
  const modules: Type<unknown>[] = [];
  for (const s of MODULE_SLICES) if (s.module) modules.push(await s.module());
  return modules;
}

@Module({})
export class AppModule {
  static async forRoot(config: AppConfig, logger: Logger): Promise<DynamicModule> {
    if (!config.database.url) throw new Error('database URL must be resolved before AppModule');
    const modules = await domainModules();
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(logger),
        DatabaseModule.forRoot(
          config.database.url,
          config.database.poolSize,
          config.http.requestTimeoutMs,
          config.database.readUrl,
        ),
        ScheduleModule.forRoot(),
        MetricsModule,
        ResilienceModule,
        HealthModule,
        QueueModule,
        ...modules,
      ],
      providers: [
        { provide: APP_INTERCEPTOR, useClass: HandlerPipelineInterceptor },
        {
          provide: PARTICIONES_OPTIONS,
          useValue: { tables: MODULE_SLICES.flatMap((s) => s.partitionedTables ?? []) },
        },
        ParticionesScheduler,
        ParticionesMetrics,
      ],
    };
  }
}
