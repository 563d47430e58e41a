import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MinisterioModule } from '../ministerio/ministerio.module.js';
import { ProfesionalModule } from '../profesional/profesional.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { MinistryNotificationService } from './ministry-notification.service.js';
import { MinistryNotificationWorker } from './ministry-notification.worker.js';
import { RecetaEventsService } from './receta-events.service.js';
import { RecetasController } from './recetas.controller.js';
import { RecetasRepository } from './recetas.repository.js';
import { RecetasService } from './recetas.service.js';
import { TransaccionesController } from './transacciones.controller.js';
import { VerificacionController } from './verificacion.controller.js';
import { VerificacionService } from './verificacion.service.js';
import { VerificacionesRepository } from './verificaciones.repository.js';

@Module({
  imports: [AuthModule, IdempotencyModule, ProfesionalModule, MinisterioModule, WebhooksModule],
  controllers: [VerificacionController, RecetasController, TransaccionesController],
  providers: [
    RecetasRepository,
    RecetasService,
    MinistryNotificationService,
    MinistryNotificationWorker,
    RecetaEventsService,
    VerificacionesRepository,
    VerificacionService,
  ],
  exports: [RecetasService],
})
export class RecetasModule {}
