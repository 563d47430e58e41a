import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LookupCache } from '../common/cache/lookup-cache.js';
import { DomainError } from '../common/errors/domain-error.js';
import { ROOT_LOGGER } from '../common/logging/logging.module.js';
import { InjectSettings } from '../config/inject-settings.js';
import type {
  ProfesionalVerificationDto,
  VerifyProfesionalDto,
} from './dto/verify-profesional.dto.js';
import { profesionalSettings } from './profesional.settings.js';
import type { ProfesionalSettings } from './profesional.settings.js';
import { pickLicence, Profesional } from './profesional.js';
import { ProfesionalRegistryClient } from './profesional-registry.client.js';

const isUpstreamUnavailable = (err: unknown) =>
  err instanceof DomainError && err.code === 'UPSTREAM_UNAVAILABLE';

/**
 * Profesional verification (contract §3) and the enablement check registration relies on. The
 * registry is behind a cache (hits for minutes, misses shorter): while REFEPS is down a recent
 * hit keeps verification and registration working; a miss is never served stale.
 */
@Injectable()
export class ProfesionalService {
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

  async verificar(query: VerifyProfesionalDto): Promise<ProfesionalVerificationDto> {
    const professional = await this.cache.get(`doc:${query.documento}`, () =>
      this.registry.findByDocument(query.documento),
    );
    const licence = professional && pickLicence(professional, query.jurisdiccion);
    if (!professional || !licence) {
      throw new DomainError(
        'NOT_FOUND',
        query.jurisdiccion === undefined || !professional
          ? 'Profesional not found in the registry'
          : 'The professional holds no licence in that jurisdiction',
      );
    }
    return {
      documento: professional.documento,
      nombre: professional.nombre,
      apellido: professional.apellido,
      matricula: licence.matricula,
      refeps_id: professional.matriculas
        .map((m) => m.refepsId)
        .filter((id) => id !== '')
        .join(','),
      jurisdiccion: licence.jurisdiccion,
      especialidad: licence.especialidades[0] ?? '',
      activo: licence.habilitado,
    };
  }

  /**
   * Whether licence `matricula` of jurisdiction `jurisdiccion` (INDEC code) is enabled; false when
   * the registry does not know it. Registry down and nothing cached → UPSTREAM_UNAVAILABLE.
   */
  async isLicenceEnabled(matricula: string, jurisdiccion: string): Promise<boolean> {
    const professional = await this.byLicence(matricula, jurisdiccion);
    return (
      professional?.matriculas.some(
        (m) => m.matricula === matricula && m.jurisdiccion === jurisdiccion && m.habilitado,
      ) ?? false
    );
  }

  /**
   * The prescriber's printed name ("Apellido, Nombre"); null when the registry does not know the
   * licence or cannot be reached (a document is printed without it rather than not at all).
   */
  async nombreDe(matricula: string, jurisdiccion: string): Promise<string | null> {
    try {
      const p = await this.byLicence(matricula, jurisdiccion);
      return p ? `${p.apellido}, ${p.nombre}` : null;
    } catch (err) {
      if (isUpstreamUnavailable(err)) return null;
      throw err;
    }
  }

  private byLicence(matricula: string, jurisdiccion: string): Promise<Profesional | null> {
    return this.cache.get(`lic:${jurisdiccion}:${matricula}`, () =>
      this.registry.findByLicence(matricula, jurisdiccion),
    );
  }
}
