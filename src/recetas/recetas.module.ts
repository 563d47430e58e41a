import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MinisterioModule } from '../ministerio/ministerio.module.js';
import { ProfesionalModule } from '../profesional/profesional.module.js';
import { MinistryNotificationService } from './ministry-notification.service.js';
import { MinistryNotificationWorker } from './ministry-notification.worker.js';
import { RecetasController } from './recetas.controller.js';
import { RecetasRepository } from './recetas.repository.js';
import { RecetasService } from './recetas.service.js';
import { TransaccionesController } from './transacciones.controller.js';

@Module({
  imports: [IdempotencyModule, ProfesionalModule, MinisterioModule],
  controllers: [RecetasController, TransaccionesController],
  providers: [
    RecetasRepository,
    RecetasService,
    MinistryNotificationService,
    MinistryNotificationWorker,
  ],
  exports: [RecetasService],
})
export class RecetasModule {}
