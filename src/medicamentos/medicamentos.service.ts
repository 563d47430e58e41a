import { Injectable } from '@nestjs/common';
import { validationFailed } from '../common/errors/domain-error.js';
import { InjectSettings } from '../config/inject-settings.js';
import { medicamentosSettings, type MedicamentosSettings } from './medicamentos.settings.js';
import { LookupCache } from '../common/cache/lookup-cache.js';
import { CatalogoSyncService } from './catalogo-sync.service.js';
import { CodigosCatalogo } from './codigos-catalogo.js';
import {
  type BuscarMedicamentosQueryDto,
  DEFAULT_PER_PAGE,
} from './dto/buscar-medicamentos.dto.js';
import { type MedicamentoItem, toMedicamentoItem } from './medicamento-mapping.js';
import { MedicamentosRepository, type SearchPage } from './medicamentos.repository.js';
import { normalizeSearchText } from './search-text.js';

export interface MedicamentosPage {
  total: number;
  page: number;
  per_page: number;
  items: MedicamentoItem[];
}

/**
 * Catalogue search (contract §3), served from the local mirror only: an upstream outage never
 * touches it, except when the mirror is still empty, where a sync is tried first.
 */
@Injectable()
export class MedicamentosService {
  /**
   * Prescribers search the same few hundred drugs all day: a short per-query cache
   * (CATALOG_SEARCH_CACHE_SECONDS; single flight) spares the trigram ranking. Every sync clears it.
   */
  private readonly results: LookupCache<SearchPage>;
  private readonly codigos: CodigosCatalogo;

  constructor(
    private readonly mirror: MedicamentosRepository,
    private readonly sync: CatalogoSyncService,
    @InjectSettings(medicamentosSettings) private readonly settings: MedicamentosSettings,
  ) {
    const ttlMs = settings.searchCacheSeconds * 1000;
    this.results = new LookupCache<SearchPage>({
      ttlMs,
      negativeTtlMs: ttlMs,
      maxEntries: 5000,
      // Bounded by rows, not pages alone: 5,000 pages of 100 rows would outgrow the heap.
      weigh: (page) => Math.max(1, page.rows.length),
      maxWeight: 20_000,
    });
    this.codigos = new CodigosCatalogo(
      { existing: (codes) => mirror.existingCodes(codes), synced: () => mirror.everSynced() },
      ttlMs,
    );
    sync.onMirrorChanged(() => {
      this.results.clear();
      this.codigos.clear();
    });
  }

  /** The codes not in the catalogue (SPEC 9.2); none while the mirror has never synced. */
  codigosDesconocidos(codes: readonly string[]): Promise<Set<string>> {
    return this.codigos.desconocidos(codes);
  }

  async buscar(query: BuscarMedicamentosQueryDto): Promise<MedicamentosPage> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const find = () => this.find(query, perPage, (page - 1) * perPage);
    let found = await find();
    // Emptiness is only asked on a miss, so a hit costs one query.
    if (found.total === 0 && (await this.mirror.isEmpty())) {
      await this.sync.ensureLoaded('on-demand');
      found = await find();
    }
    return {
      total: found.total,
      page,
      per_page: perPage,
      items: found.rows.map((r) => toMedicamentoItem(r, this.settings.insurerName)),
    };
  }

  private async find(
    q: BuscarMedicamentosQueryDto,
    limit: number,
    offset: number,
  ): Promise<SearchPage> {
    if (q.code !== undefined) {
      const row = await this.mirror.findByCode(q.code);
      return { total: row ? 1 : 0, rows: row && offset === 0 ? [row] : [] };
    }
    const text = normalizeSearchText(q.q ?? '');
    if (text.length < 2) {
      throw validationFailed([
        { field: 'q', issue: 'must have at least 2 characters besides accents' },
      ]);
    }
    const search = () => this.mirror.search(text, limit, offset);
    if (this.settings.searchCacheSeconds === 0) return search();
    return (await this.results.get(`${limit}:${offset}:${text}`, search)) as SearchPage;
  }
}
