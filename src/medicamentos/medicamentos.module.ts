import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { CatalogoClient } from './catalogo.client.js';
import { CatalogoHttpClient } from './catalogo.http-client.js';
import { CatalogoSyncMetrics } from './catalogo-sync.metrics.js';
import { CatalogoSyncScheduler } from './catalogo-sync.scheduler.js';
import { CatalogoSyncService } from './catalogo-sync.service.js';
import { MedicamentosController } from './medicamentos.controller.js';
import { MedicamentosRepository } from './medicamentos.repository.js';
import { MedicamentosService } from './medicamentos.service.js';
import { MirrorSyncRepository } from './mirror-sync.repository.js';

@Module({
  imports: [HttpModule],
  controllers: [MedicamentosController],
  providers: [
    MedicamentosService,
    MedicamentosRepository,
    MirrorSyncRepository,
    CatalogoSyncService,
    CatalogoSyncMetrics,
    CatalogoSyncScheduler,
    { provide: CatalogoClient, useClass: CatalogoHttpClient },
  ],
  exports: [MedicamentosService],
})
export class MedicamentosModule {}
