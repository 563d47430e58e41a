import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Logger } from 'pino';
import { EnvelopeInterceptor } from './common/http/envelope.interceptor.js';
import { RequestTimeoutInterceptor } from './common/http/request-timeout.interceptor.js';
import { ResilienceModule } from './common/resilience/resilience.module.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { UndeclaredQueryInterceptor } from './common/validation/undeclared-query.interceptor.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CuirModule } from './cuir/cuir.module.js';
import { PersonaModule } from './persona/persona.module.js';
import { QueueModule } from './queue/queue.module.js';
import { RecetasModule } from './recetas/recetas.module.js';
import { ProfesionalModule } from './profesional/profesional.module.js';
import { MedicamentosModule } from './medicamentos/medicamentos.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';

@Module({})
export class AppModule {
  /** The bootstrap resolves the database URL and registry URLs before the module graph is built. */
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    if (!config.database.url) throw new Error('database URL must be resolved before AppModule');
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(logger),
        DatabaseModule.forRoot(
          config.database.url,
          config.database.poolSize,
          config.http.requestTimeoutMs,
        ),
        MetricsModule,
        ResilienceModule,
        HealthModule,
        AuthModule,
        CuirModule,
        ProfesionalModule,
        PersonaModule,
        QueueModule,
        RecetasModule,
        MedicamentosModule,
      ],
      providers: [
        { provide: APP_INTERCEPTOR, useClass: RequestTimeoutInterceptor },
        { provide: APP_INTERCEPTOR, useClass: UndeclaredQueryInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
    };
  }
}
