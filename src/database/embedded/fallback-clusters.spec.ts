import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFallbackClusters, recordCheckout, removeOrphans } from './fallback-clusters.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { serverInfoPath } from './ownership.js';

describe('relocated clusters and their checkouts', () => {
  let root: string;
  let checkouts: string;

  /** A relocated folder as effectiveDataDir leaves it, for `checkout`. */
  const relocated = (name: string, checkout: string | null) => {
    const folder = join(root, name);
    const dataDir = join(folder, 'postgres');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'PG_VERSION'), '18\n');
    if (checkout) recordCheckout(folder, checkout, dataDir);
    return { folder, dataDir };
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'prs-fallback-'));
    checkouts = mkdtempSync(join(tmpdir(), 'prs-checkouts-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(checkouts, { recursive: true, force: true });
  });

  it('lists each cluster with its checkout, an orphan when that is gone; the binaries are none', () => {
    const alive = join(checkouts, 'alive');
    mkdirSync(alive);
    relocated('alive-0123456789', alive);
    relocated('gone-0123456789', join(checkouts, 'gone'));
    relocated('old-0123456789', null);
    mkdirSync(join(root, 'postgres-18-4-linux-x64', 'bin'), { recursive: true });
    expect(listFallbackClusters(root)).toEqual([
      expect.objectContaining({ checkout: alive, huerfano: false, en_uso: false }),
      expect.objectContaining({ checkout: join(checkouts, 'gone'), huerfano: true }),
      expect.objectContaining({ carpeta: join(root, 'old-0123456789'), checkout: null }),
    ]);
    expect(listFallbackClusters(join(root, 'nothing-here'))).toEqual([]);
  });

  it('removes only orphans, never one in use or of an unknown checkout', () => {
    const alive = join(checkouts, 'alive');
    mkdirSync(alive);
    const kept = relocated('alive-0123456789', alive);
    const gone = relocated('gone-0123456789', join(checkouts, 'gone'));
    const running = relocated('running-0123456789', join(checkouts, 'running'));
    // Its owner (this process) is alive: its server may be running.
    writeFileSync(
      serverInfoPath(running.dataDir),
      JSON.stringify({ pid: process.pid, port: 5432, startedAt: new Date().toISOString() }),
    );
    const old = relocated('old-0123456789', null);
    const removal = removeOrphans(root);
    expect(removal.borrados).toEqual([gone.folder]);
    expect(removal.conservados.map((k) => k.carpeta).sort()).toEqual(
      [kept.folder, old.folder, running.folder].sort(),
    );
    expect(removal.conservados.find((k) => k.carpeta === running.folder)?.motivo).toMatch(
      /running/,
    );
    expect(existsSync(gone.folder)).toBe(false);
    expect(existsSync(kept.folder) && existsSync(old.folder)).toBe(true);
  });

  it('removes only the folders named, and refuses a name that is no relocated cluster', () => {
    const a = relocated('a-0123456789', join(checkouts, 'a'));
    const b = relocated('b-0123456789', join(checkouts, 'b'));
    expect(removeOrphans(root, ['b-0123456789']).borrados).toEqual([b.folder]);
    expect(existsSync(a.folder)).toBe(true);
    expect(() => removeOrphans(root, ['/etc'])).toThrow(DomainError);
    expect(existsSync(a.folder)).toBe(true);
  });
});
