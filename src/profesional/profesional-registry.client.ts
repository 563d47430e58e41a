import type { Profesional } from './profesional.js';

/**
 * Port to the professional registry (REFEPS through SISA), used as the DI token. Null means
 * the registry has no such record; a failing registry throws DomainError UPSTREAM_UNAVAILABLE.
 */
export abstract class ProfesionalRegistryClient {
  abstract findByDocument(documento: string): Promise<Profesional | null>;

  /** The professional holding licence `matricula` in jurisdiction `jurisdiccion` (INDEC code). */
  abstract findByLicence(matricula: string, jurisdiccion: string): Promise<Profesional | null>;
}
