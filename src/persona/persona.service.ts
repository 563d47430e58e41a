import { Inject, Injectable } from '@nestjs/common';
import { LookupCache } from '../common/cache/lookup-cache.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ageInYears, Citizen, formatDomicilio } from './citizen.js';
import { CitizenRegistryClient } from './citizen-registry.client.js';
import type { PersonaVerificationDto, VerifyPersonaDto } from './dto/verify-persona.dto.js';

/**
 * Citizen verification (SPEC 3). Citizen data is kept only in a short cache (hits and misses
 * alike) and never served stale: when RENAPER is down the caller gets UPSTREAM_UNAVAILABLE.
 */
@Injectable()
export class PersonaService {
  private readonly cache: LookupCache<Citizen>;

  constructor(
    private readonly registry: CitizenRegistryClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const ttlMs = config.registryCache.personaTtlSeconds * 1000;
    this.cache = new LookupCache<Citizen>({
      ttlMs,
      negativeTtlMs: Math.min(ttlMs, config.registryCache.negativeTtlSeconds * 1000),
      maxEntries: config.registryCache.maxEntries,
    });
  }

  async verify(query: VerifyPersonaDto): Promise<PersonaVerificationDto> {
    const citizen = await this.cache.get(query.documento, () =>
      this.registry.findByDocument(query.documento),
    );
    if (!citizen) throw new DomainError('NOT_FOUND', 'Person not found in the registry');
    return {
      nombre: citizen.nombre,
      apellido: citizen.apellido,
      // Computed per request, so a cached record never answers yesterday's age.
      edad: ageInYears(citizen.fechaNacimiento, new Date()),
      domicilio: formatDomicilio(citizen.domicilio),
      documento: citizen.documento,
    };
  }
}
