import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LookupCache } from '../common/cache/lookup-cache.js';
import { DomainError } from '../common/errors/domain-error.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/settings.js';
import { profesionalSettings } from './profesional.settings.js';
import type { ProfesionalSettings } from './profesional.settings.js';
import type { Profesional } from './profesional.js';
import { ProfesionalRegistryClient } from './profesional-registry.client.js';

const isUpstreamUnavailable = (err: unknown) =>
  err instanceof DomainError && err.code === 'UPSTREAM_UNAVAILABLE';

const licenceKey = (matricula: string, jurisdiccion: string) => `lic:${jurisdiccion}:${matricula}`;

/**
 * The registry port behind a cache (contract §3: hits for minutes, misses shorter). While REFEPS is
 * down a recent hit keeps verification and registration working; a miss is never served stale.
 */
@Injectable()
export class ProfesionalCache {
  private readonly cache: LookupCache<Profesional>;

  constructor(
    private readonly registry: ProfesionalRegistryClient,
    @InjectSettings(profesionalSettings) c: ProfesionalSettings,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    const log = logger.child({ component: 'professional-cache' });
    this.cache = new LookupCache<Profesional>({
      ttlMs: c.ttlSeconds * 1000,
      negativeTtlMs: c.negativeTtlSeconds * 1000,
      staleTtlMs: c.staleTtlSeconds * 1000,
      maxEntries: c.maxEntries,
      serveStaleOn: isUpstreamUnavailable,
      onStaleServed: () =>
        log.warn({ system: 'refeps' }, 'registry unavailable: serving a stale professional record'),
    });
  }

  byDocument(documento: string): Promise<Profesional | null> {
    return this.cache.get(`doc:${documento}`, () => this.registry.findByDocument(documento));
  }

  byLicence(matricula: string, jurisdiccion: string): Promise<Profesional | null> {
    return this.cache.get(licenceKey(matricula, jurisdiccion), () =>
      this.registry.findByLicence(matricula, jurisdiccion),
    );
  }
}
