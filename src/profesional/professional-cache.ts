import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LookupCache } from '../common/cache/lookup-cache.js';
import { DomainError } from '../common/errors/domain-error.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { Professional } from './professional.js';
import { ProfessionalRegistryClient } from './professional-registry.client.js';

const isUpstreamUnavailable = (err: unknown) =>
  err instanceof DomainError && err.code === 'UPSTREAM_UNAVAILABLE';

const licenceKey = (matricula: string, jurisdiccion: string) => `lic:${jurisdiccion}:${matricula}`;

/**
 * The registry port behind a cache (SPEC 3: hits for minutes, misses shorter). While REFEPS is
 * down a recent hit keeps verification and registration working; a miss is never served stale.
 */
@Injectable()
export class ProfessionalCache {
  private readonly cache: LookupCache<Professional>;

  constructor(
    private readonly registry: ProfessionalRegistryClient,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    const c = config.registryCache;
    const log = logger.child({ component: 'professional-cache' });
    this.cache = new LookupCache<Professional>({
      ttlMs: c.ttlSeconds * 1000,
      negativeTtlMs: c.negativeTtlSeconds * 1000,
      staleTtlMs: c.staleTtlSeconds * 1000,
      maxEntries: c.maxEntries,
      serveStaleOn: isUpstreamUnavailable,
      onStaleServed: () =>
        log.warn({ system: 'refeps' }, 'registry unavailable: serving a stale professional record'),
    });
  }

  byDocument(documento: string): Promise<Professional | null> {
    return this.cache.get(`doc:${documento}`, () => this.registry.findByDocument(documento));
  }

  byLicence(matricula: string, jurisdiccion: string): Promise<Professional | null> {
    return this.cache.get(licenceKey(matricula, jurisdiccion), () =>
      this.registry.findByLicence(matricula, jurisdiccion),
    );
  }

  /** Whether `byLicence` would answer from memory, without asking the registry. */
  hasLicence(matricula: string, jurisdiccion: string): boolean {
    return this.cache.has(licenceKey(matricula, jurisdiccion));
  }
}
