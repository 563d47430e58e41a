import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditSealScheduler } from './audit-seal.scheduler.js';
import { AuditSealer } from './audit-sealer.js';
import { AuditoriaRepository } from './auditoria.repository.js';
import { AuditoriaMetrics } from './auditoria.metrics.js';
import { AuditoriaService } from './auditoria.service.js';
import { AuditEventEntity } from './entities/audit-event.entity.js';
import { AuditPurgeEntity } from './entities/audit-purge.entity.js';
import { AuditSealEntity } from './entities/audit-seal.entity.js';
import { AuditSealsRepository } from './audit-seals.repository.js';

/** The sealed event log (contract §8): its writer, and the sealer; verify and purge are CLI commands. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity, AuditSealEntity, AuditPurgeEntity])],
  providers: [
    AuditoriaService,
    AuditoriaRepository,
    AuditSealsRepository,
    AuditSealer,
    AuditSealScheduler,
    AuditoriaMetrics,
  ],
  exports: [AuditoriaService],
})
export class AuditoriaModule {}
