import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogoClient } from './catalogo.client.js';
import { CatalogoHttpClient } from './catalogo.http-client.js';
import { CatalogoSyncMetrics } from './catalogo-sync.metrics.js';
import { CatalogoSyncScheduler } from './catalogo-sync.scheduler.js';
import { CatalogoSyncService } from './catalogo-sync.service.js';
import { CatalogoSyncStateEntity } from './entities/catalogo-sync-state.entity.js';
import { MedicamentoEntity } from './entities/medicamento.entity.js';
import { MedicamentosController } from './medicamentos.controller.js';
import { MedicamentosRepository } from './medicamentos.repository.js';
import { MedicamentosService } from './medicamentos.service.js';
import { MirrorChangeListener } from './mirror-change-listener.js';
import { MirrorSyncRepository } from './mirror-sync.repository.js';

@Module({
  imports: [HttpModule, TypeOrmModule.forFeature([MedicamentoEntity, CatalogoSyncStateEntity])],
  controllers: [MedicamentosController],
  providers: [
    MedicamentosService,
    MedicamentosRepository,
    MirrorSyncRepository,
    CatalogoSyncService,
    CatalogoSyncMetrics,
    CatalogoSyncScheduler,
    MirrorChangeListener,
    { provide: CatalogoClient, useClass: CatalogoHttpClient },
  ],
  exports: [MedicamentosService],
})
export class MedicamentosModule {}
