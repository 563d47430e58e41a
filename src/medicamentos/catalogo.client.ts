/** One catalogue entry as the upstream publishes it (validated by the adapter). */
export interface CatalogoItem {
  codigo: string;
  nombre_comercial: string;
  ifa: string;
  concentracion: string;
  forma_farmaceutica: string;
  via: string;
  presentacion: string;
  laboratorio: string;
  condicion_expendio: string;
  /** Insurer ids granting a discount on this presentation. */
  coberturas: string[];
}

export interface CatalogoPage {
  items: CatalogoItem[];
  /** Items in the whole catalogue, as the upstream counted them when answering this page. */
  total: number;
}

/**
 * Port to the official medication catalogue, used as the DI token. A failing or garbled
 * upstream throws DomainError UPSTREAM_UNAVAILABLE (through the resilience policy).
 */
export abstract class CatalogoClient {
  /** Page `page` (1-based) of the catalogue ordered by code; past the end, no items. */
  abstract fetchPage(page: number, perPage: number): Promise<CatalogoPage>;
}
