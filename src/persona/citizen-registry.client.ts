import type { Citizen } from './citizen.js';

/**
 * Port to the citizen registry (RENAPER through SISA), used as the DI token. Null means no
 * such person; a failing registry throws DomainError UPSTREAM_UNAVAILABLE.
 */
export abstract class CitizenRegistryClient {
  abstract findByDocument(documento: string): Promise<Citizen | null>;
}
