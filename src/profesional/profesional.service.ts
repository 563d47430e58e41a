import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error.js';
import type {
  ProfesionalVerificationDto,
  VerifyProfesionalDto,
} from './dto/verify-profesional.dto.js';
import { pickLicence } from './profesional.js';
import { ProfesionalCache } from './profesional-cache.js';

/** Profesional verification (contract §3) and the enablement check registration relies on. */
@Injectable()
export class ProfesionalService {
  constructor(private readonly registry: ProfesionalCache) {}

  async verificar(query: VerifyProfesionalDto): Promise<ProfesionalVerificationDto> {
    const professional = await this.registry.byDocument(query.documento);
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

  /**
   * The prescriber's printed name ("Apellido, Nombre") for a licence, when the registry gives
   * one; null when it does not know the licence or cannot be reached (a document is printed
   * without it rather than not at all).
   */
  async nombreDe(matricula: string, jurisdiccion: string): Promise<string | null> {
    try {
      const p = await this.registry.byLicence(matricula, jurisdiccion);
      return p ? `${p.apellido}, ${p.nombre}` : null;
    } catch (err) {
      if (err instanceof DomainError && err.code === 'UPSTREAM_UNAVAILABLE') return null;
      throw err;
    }
  }
}
