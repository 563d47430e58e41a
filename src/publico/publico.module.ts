import { Module } from '@nestjs/common';
import { AuditoriaModule } from '../auditoria/auditoria.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ProfesionalModule } from '../profesional/profesional.module.js';
import { RecetasModule } from '../recetas/recetas.module.js';
import { EnlacesPublicosModule } from './enlaces-publicos.module.js';
import { PublicoRateLimit } from './publico-rate-limit.js';
import { PublicoController } from './publico.controller.js';
import { PublicoService } from './publico.service.js';

/** The public verification page behind the printed QR (contract §9.4). */
@Module({
  imports: [AuditoriaModule, AuthModule, EnlacesPublicosModule, ProfesionalModule, RecetasModule],
  controllers: [PublicoController],
  providers: [PublicoService, PublicoRateLimit],
})
export class PublicoModule {}
