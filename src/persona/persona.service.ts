import { Injectable } from '@nestjs/common';
import { LookupCache } from '../common/cache/lookup-cache.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { InjectSettings } from '../config/inject-settings.js';
import { personaSettings } from './persona.settings.js';
import type { PersonaSettings } from './persona.settings.js';
import { ageInYears, Persona, formatDomicilio } from './persona.js';
import { PersonaRegistryClient } from './persona-registry.client.js';
import type { PersonaVerificationDto, VerifyPersonaDto } from './dto/verify-persona.dto.js';

/**
 * Persona verification (contract §3): a short cache, never served stale. Per client: a shared one
 * would answer B's first lookup of a citizen A had just verified fast, telling B whom A looked up.
 */
@Injectable()
export class PersonaService {
  private readonly cache: LookupCache<Persona>;

  constructor(
    private readonly registry: PersonaRegistryClient,
    @InjectSettings(personaSettings) settings: PersonaSettings,
  ) {
    const ttlMs = settings.cacheTtlSeconds * 1000;
    this.cache = new LookupCache<Persona>({
      ttlMs,
      negativeTtlMs: ttlMs,
      maxEntries: settings.cacheMaxEntries,
    });
  }

  async verificar(
    client: AuthenticatedClient,
    query: VerifyPersonaDto,
  ): Promise<PersonaVerificationDto> {
    const citizen = await this.cache.get(`${client.id}:${query.documento}`, () =>
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
