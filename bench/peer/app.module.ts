import { Module, type OnApplicationShutdown, type OnModuleInit, Inject } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import PgBoss from 'pg-boss';
import { ApiKeyGuard } from './auth.guard.js';
import { ApiClient, IdempotencyKey, Receta, RecetaHistorial } from './entities.js';
import { HealthController, RecetasController } from './recetas.controller.js';
import { BOSS, MINISTERIO_QUEUE, RecetasService } from './recetas.service.js';

const url = process.env.DATABASE_URL;

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url,
      entities: [Receta, RecetaHistorial, IdempotencyKey, ApiClient],
      synchronize: false,
      poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      applicationName: 'bench-peer',
    }),
    TypeOrmModule.forFeature([Receta, ApiClient]),
  ],
  controllers: [RecetasController, HealthController],
  providers: [
    RecetasService,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    {
      provide: BOSS,
      useFactory: () =>
        new PgBoss({
          connectionString: url,
          schema: process.env.QUEUE_SCHEMA ?? 'pgboss',
          max: 2,
          schedule: false,
        }),
    },
  ],
})
export class PeerModule implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(BOSS) private readonly boss: PgBoss) {}

  async onModuleInit(): Promise<void> {
    this.boss.on('error', (err) => process.stderr.write(`peer: pg-boss: ${String(err)}\n`));
    await this.boss.start();
    if (!(await this.boss.getQueue(MINISTERIO_QUEUE)))
      await this.boss.createQueue(MINISTERIO_QUEUE);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.boss.stop({ graceful: false });
  }
}
