import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditoriaModule } from '../auditoria/auditoria.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MedicamentosModule } from '../medicamentos/medicamentos.module.js';
import { RecetasModule } from '../recetas/recetas.module.js';
import { VerificacionModule } from '../verificacion/verificacion.module.js';
import { DispensacionPort } from '../recetas/recetas.public.js';
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
 * Reservation, dispensation and reversal by dispensers (contract §7). Global only to provide
 * recetas' DispensacionPort: recetas declares it without importing this module, so the two
 * share data without a module or import cycle.
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
    ReservasService,
    DispensasService,
    { provide: DispensacionPort, useExisting: DispensasRepository },
  ],
  exports: [DispensacionPort],
})
export class DispensasModule {}
