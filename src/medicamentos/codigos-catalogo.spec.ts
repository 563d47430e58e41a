import { CodigosCatalogo, type CodigosMirror } from './codigos-catalogo.js';

class FakeMirror implements CodigosMirror {
  codes = new Set(['1336421', '2105825']);
  isSynced = true;
  readonly queries: string[][] = [];
  existing(codes: string[]): Promise<string[]> {
    this.queries.push([...codes].sort());
    return Promise.resolve(codes.filter((c) => this.codes.has(c)));
  }
  synced(): Promise<boolean> {
    return Promise.resolve(this.isSynced);
  }
}

describe('CodigosCatalogo (SPEC 9.2: codes must be in the catalogue)', () => {
  it('names the unknown codes, reading each code once and the misses of one turn in one query', async () => {
    const mirror = new FakeMirror();
    const codigos = new CodigosCatalogo(mirror, 60_000);
    const [a, b] = await Promise.all([
      codigos.desconocidos(['1336421', '9999999', '1336421']),
      codigos.desconocidos(['2105825']),
    ]);
    expect([...a]).toEqual(['9999999']);
    expect([...b]).toEqual([]);
    expect(mirror.queries).toEqual([['1336421', '2105825', '9999999']]);
    // From memory now, the unknown one too.
    expect([...(await codigos.desconocidos(['9999999', '2105825']))]).toEqual(['9999999']);
    expect(mirror.queries).toHaveLength(1);
  });

  it('forgets every answer when the mirror changes (a sync)', async () => {
    const mirror = new FakeMirror();
    const codigos = new CodigosCatalogo(mirror, 60_000);
    expect([...(await codigos.desconocidos(['7777777']))]).toEqual(['7777777']);
    mirror.codes.add('7777777');
    codigos.clear();
    expect([...(await codigos.desconocidos(['7777777']))]).toEqual([]);
  });

  it('accepts every code while the mirror never synced, and checks once it did', async () => {
    const mirror = new FakeMirror();
    mirror.isSynced = false;
    const codigos = new CodigosCatalogo(mirror, 60_000);
    expect([...(await codigos.desconocidos(['9999999']))]).toEqual([]);
    expect(mirror.queries).toEqual([]);
    mirror.isSynced = true;
    expect([...(await codigos.desconocidos(['9999999']))]).toEqual(['9999999']);
  });

  it('with no cache (CATALOG_SEARCH_CACHE_SECONDS=0) reads every time, and nothing for no codes', async () => {
    const mirror = new FakeMirror();
    const codigos = new CodigosCatalogo(mirror, 0);
    await codigos.desconocidos(['1336421']);
    await codigos.desconocidos(['1336421']);
    await codigos.desconocidos([]);
    expect(mirror.queries).toHaveLength(2);
  });
});
