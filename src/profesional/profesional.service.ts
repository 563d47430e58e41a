import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error.js';
import type {
  ProfesionalVerificationDto,
  VerifyProfesionalDto,
} from './dto/verify-profesional.dto.js';
import { pickLicence } from './professional.js';
import { ProfessionalCache } from './professional-cache.js';

/** Professional verification (SPEC 3) and the enablement check registration relies on. */
@Injectable()
export class ProfesionalService {
  constructor(private readonly registry: ProfessionalCache) {}

  async verify(query: VerifyProfesionalDto): Promise<ProfesionalVerificationDto> {
    const professional = await this.registry.byDocument(query.documento);
    const licence = professional && pickLicence(professional, query.jurisdiccion);
    if (!professional || !licence) {
      throw new DomainError(
        'NOT_FOUND',
        query.jurisdiccion === undefined || !professional
          ? 'Professional not found in the registry'
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
   * Whether licence `matricula` of jurisdiction `jurisdiccion` (INDEC code) is enabled in the
   * registry; false when the registry does not know it. Registry down and nothing cached →
   * DomainError UPSTREAM_UNAVAILABLE.
   */
  async isLicenceEnabled(matricula: string, jurisdiccion: string): Promise<boolean> {
    const professional = await this.registry.byLicence(matricula, jurisdiccion);
    return (
      professional?.matriculas.some(
        (m) => m.matricula === matricula && m.jurisdiccion === jurisdiccion && m.habilitado,
      ) ?? false
    );
  }

  /** Whether `isLicenceEnabled` would answer at once, from the cache, without asking REFEPS. */
  isLicenceCheckCached(matricula: string, jurisdiccion: string): boolean {
    return this.registry.hasLicence(matricula, jurisdiccion);
  }
}
