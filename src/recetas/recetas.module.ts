import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditoriaModule } from '../auditoria/auditoria.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { EnlacesPublicosModule } from '../publico/enlaces-publicos.module.js';
import { CuirModule } from '../cuir/cuir.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MedicamentosModule } from '../medicamentos/medicamentos.module.js';
import { MinisterioModule } from '../ministerio/ministerio.module.js';
import { ProfesionalModule } from '../profesional/profesional.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { AnulacionController } from './anulacion/anulacion.controller.js';
import { AnulacionService } from './anulacion/anulacion.service.js';
import { ConsultaController } from './consulta/consulta.controller.js';
import { ConsultaService } from './consulta/consulta.service.js';
import { TransaccionesController } from './consulta/transacciones.controller.js';
import { RecetaHistorialEntity } from './entities/receta-historial.entity.js';
import { CifradoPaciente } from './cifrado/cifrado-paciente.js';
import { ClavesPacienteCheck } from './cifrado/claves-paciente.check.js';
import { RecetaCuirEntity } from './entities/receta-cuir.entity.js';
import { RecetaEntity } from './entities/receta.entity.js';
import { MinisterioBacklogMetrics } from './notificacion/ministerio-backlog.metrics.js';
import { MinisterioDeliveryJob } from './notificacion/ministerio-delivery.job.js';
import { RecetaWebhooksService } from './notificacion/receta-webhooks.service.js';
import { WebhookDeliveryJob } from './notificacion/webhook-delivery.job.js';
import { RecetasRepository } from './recetas.repository.js';
import { RecetasService } from './recetas.service.js';
import { RegistroController } from './registro/registro.controller.js';
import { RegistroService } from './registro/registro.service.js';
import { RegistroWriter } from './registro/registro.writer.js';

/**
 * Prescriptions, by concern (docs/architecture.md, "Folders"). DispensacionPort is declared here
 * and provided by the global DispensasModule: recetas never imports dispensas.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([RecetaEntity, RecetaHistorialEntity, RecetaCuirEntity]),
    AuthModule,
    AuditoriaModule,
    CuirModule,
    EnlacesPublicosModule,
    IdempotencyModule,
    MedicamentosModule,
    ProfesionalModule,
    MinisterioModule,
    WebhooksModule,
  ],
  controllers: [
    RegistroController,
    ConsultaController,
    TransaccionesController,
    AnulacionController,
  ],
  providers: [
    CifradoPaciente,
    ClavesPacienteCheck,
    RecetasRepository,
    RecetasService,
    RegistroService,
    RegistroWriter,
    ConsultaService,
    AnulacionService,
    MinisterioDeliveryJob,
    WebhookDeliveryJob,
    RecetaWebhooksService,
    MinisterioBacklogMetrics,
  ],
  exports: [RecetasService, RecetaWebhooksService],
})
export class RecetasModule {}
