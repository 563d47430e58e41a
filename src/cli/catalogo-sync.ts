// `catalogo sync`'s work, loaded by catalogo.command.ts only when the command runs.
import { HttpService } from '@nestjs/axios';
import { Transactions } from '../database/transactions.js';
import axios from 'axios';
import pino from 'pino';
import { createRootLogger } from '../common/logging/logger.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { type AppConfig, withSandbox } from '../config/app-config.js';
import { CatalogoHttpClient } from '../medicamentos/catalogo.http-client.js';
import { CatalogoSyncMetrics } from '../medicamentos/catalogo-sync.metrics.js';
import { CatalogoSyncService, type SyncResult } from '../medicamentos/catalogo-sync.service.js';
import { MedicamentosRepository } from '../medicamentos/medicamentos.repository.js';
import { MirrorSyncRepository } from '../medicamentos/mirror-sync.repository.js';
import { MetricsService } from '../common/metrics/metrics.service.js';
import { CatalogoSyncStateEntity } from '../medicamentos/entities/catalogo-sync-state.entity.js';
import { MedicamentoEntity } from '../medicamentos/entities/medicamento.entity.js';
import { medicamentosSettings } from '../medicamentos/medicamentos.settings.js';
import { withCliDatabase } from './cli-database.js';

/** Runs the sync as the service wires it, without Nest. */
export async function syncCatalogo(initial: AppConfig): Promise<SyncResult> {
  const logger = createRootLogger(initial.logLevel, pino.destination(2));
  // The emulated catalogue, loaded only when no real one is configured (never in production).
  const sandbox = initial.upstreams.catalogoBaseUrl
    ? undefined
    : await import('../../sandbox/server.js').then((s) => s.startSandbox({ port: 0, quiet: true }));
  const config = sandbox ? withSandbox(initial, sandbox.url) : initial;
  try {
    return await withCliDatabase(config, [MedicamentoEntity, CatalogoSyncStateEntity], (ds) => {
      const metrics = new MetricsService();
      const writer = new MirrorSyncRepository(ds);
      const settings = config.settings(medicamentosSettings);
      return new CatalogoSyncService(
        writer,
        new MedicamentosRepository(ds, new Transactions(ds)),
        new CatalogoHttpClient(
          new HttpService(axios.create()),
          config,
          new ResilienceRegistry(config, logger, metrics),
        ),
        new CatalogoSyncMetrics(metrics, writer, settings),
        settings,
        logger,
      ).run('cli');
    });
  } finally {
    await sandbox?.close();
  }
}
