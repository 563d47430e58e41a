import { Module } from '@nestjs/common';
import { AuditoriaModule } from '../auditoria/auditoria.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { RecetasModule } from '../recetas/recetas.module.js';
import { FiscalizacionController } from './fiscalizacion.controller.js';
import { FiscalizacionService } from './fiscalizacion.service.js';

/**
 * The health authority's copy of restricted prescriptions (SPEC 9.3). No table of its own: it
 * reads through RecetasService, over the partial index its migration creates.
 */
@Module({
  imports: [AuthModule, AuditoriaModule, RecetasModule],
  controllers: [FiscalizacionController],
  providers: [FiscalizacionService],
})
export class FiscalizacionModule {}
