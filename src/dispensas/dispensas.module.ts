import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditoriaModule } from '../auditoria/auditoria.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MedicamentosModule } from '../medicamentos/medicamentos.module.js';
import { RecetasModule } from '../recetas/recetas.module.js';
import { VerificacionModule } from '../verificacion/verificacion.module.js';
import { DispensacionPort } from '../recetas/recetas.public.js';
import { DispensacionAdapter } from './dispensacion.adapter.js';
import { DispensasAudit } from './dispensas-audit.js';
import { DispensasController } from './dispensas.controller.js';
import { DispensasRepository } from './dispensas.repository.js';
import { DispensasService } from './dispensas.service.js';
import { DispensaItemEntity } from './entities/dispensa-item.entity.js';
import { DispensaEntity } from './entities/dispensa.entity.js';
import { ReservaEntity } from './entities/reserva.entity.js';
import { ReservasController } from './reservas.controller.js';
import { ReservasRepository } from './reservas.repository.js';
import { ReservasService } from './reservas.service.js';

/**
 * Reservation, dispensation and reversal of prescriptions by dispensers (contract §7). It reaches
 * prescriptions through RecetasService (their row lock, their life) and tells their owners
 * through RecetaWebhooksService.
 *
 * Global for one reason: it provides recetas' DispensacionPort (what recetas needs to know of
 * dispensations: the detail, estado_receta, the cancellation's 409s). recetas declares the port
 * and does not import this module — a global module's exports reach every module — so the two
 * depend on each other's data without a module or import cycle. Nothing else is exported.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([ReservaEntity, DispensaEntity, DispensaItemEntity]),
    AuthModule,
    IdempotencyModule,
    AuditoriaModule,
    MedicamentosModule,
    RecetasModule,
    VerificacionModule,
  ],
  controllers: [ReservasController, DispensasController],
  providers: [
    DispensasRepository,
    ReservasRepository,
    DispensasAudit,
    ReservasService,
    DispensasService,
    DispensacionAdapter,
    { provide: DispensacionPort, useExisting: DispensacionAdapter },
  ],
  exports: [DispensacionPort],
})
export class DispensasModule {}
