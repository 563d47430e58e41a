import type { Persona } from './persona.js';

/**
 * Port to the citizen registry (RENAPER through SISA), used as the DI token. Null means no
 * such person; a failing registry throws DomainError UPSTREAM_UNAVAILABLE.
 */
export abstract class PersonaRegistryClient {
  abstract findByDocument(documento: string): Promise<Persona | null>;
}
