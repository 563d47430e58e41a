import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Logger } from 'pino';
import { HandlerPipelineInterceptor } from './common/http/handler-pipeline.interceptor.js';
import { LoggingModule } from './common/logging/logging.module.js';
import { MetricsModule } from './common/metrics/metrics.module.js';
import { ResilienceModule } from './common/resilience/resilience.module.js';
import { UndeclaredQueryCheck } from './common/validation/undeclared-query.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { QueueModule } from './queue/queue.module.js';
import { AuditoriaModule } from './auditoria/auditoria.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CuirModule } from './cuir/cuir.module.js';
import { DispensasModule } from './dispensas/dispensas.module.js';
import { FiscalizacionModule } from './fiscalizacion/fiscalizacion.module.js';
import { MedicamentosModule } from './medicamentos/medicamentos.module.js';
import { PublicoModule } from './publico/publico.module.js';
import { PacienteModule } from './paciente/paciente.module.js';
import { PersonaModule } from './persona/persona.module.js';
import { ProfesionalModule } from './profesional/profesional.module.js';
import { RecetasModule } from './recetas/recetas.module.js';
import { VerificacionModule } from './verificacion/verificacion.module.js';

/**
 * The domain modules, one line each (their slices — scopes, errors, settings, migrations — are
 * listed in slices.ts). Modules that others import (idempotency, ministerio, webhooks) come in
 * through them.
 */
const DOMAIN_MODULES = [
  AuthModule,
  CuirModule,
  RecetasModule,
  VerificacionModule,
  DispensasModule,
  ProfesionalModule,
  PersonaModule,
  MedicamentosModule,
  AuditoriaModule,
  PacienteModule,
  PublicoModule,
  FiscalizacionModule,
];

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
          config.database.readUrl,
        ),
        MetricsModule,
        ResilienceModule,
        HealthModule,
        QueueModule,
        ...DOMAIN_MODULES,
      ],
      providers: [
        UndeclaredQueryCheck,
        { provide: APP_INTERCEPTOR, useClass: HandlerPipelineInterceptor },
      ],
    };
  }
}
