import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditoriaModule } from '../auditoria/auditoria.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { RecetasModule } from '../recetas/recetas.module.js';
import { EnumeracionLimiter } from './enumeracion-limiter.js';
import { VerificacionCuirEntity } from './verificacion-cuir.entity.js';
import { VerificacionController } from './verificacion.controller.js';
import { VerificacionService } from './verificacion.service.js';
import { VerificacionesRepository } from './verificaciones.repository.js';

/** Verification by CUIR for dispensers (contract §3), with its audit trail for the owner. */
@Module({
  imports: [
    TypeOrmModule.forFeature([VerificacionCuirEntity]),
    AuthModule,
    AuditoriaModule,
    RecetasModule,
  ],
  controllers: [VerificacionController],
  providers: [VerificacionService, VerificacionesRepository, EnumeracionLimiter],
  // The dispensation routes spend the same budget of unknown CUIRs (SPEC 11.5).
  exports: [EnumeracionLimiter],
})
export class VerificacionModule {}
