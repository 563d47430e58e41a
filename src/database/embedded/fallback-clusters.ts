import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DomainError } from '../../common/errors/domain-error.js';
import { livePostmaster, readRunningServer } from './ownership.js';

// Root's relocated clusters (effectiveDataDir) outlive a deleted checkout: each records its
// checkout, so that `clusters listar | borrar-huerfanos` can find and remove the orphans.

const CHECKOUT_FILE = 'checkout.json';

interface CheckoutRecord {
  checkout: string;
  data_dir: string;
}

export interface FallbackCluster {
  carpeta: string;
  /** null for a folder made before the record was kept. */
  checkout: string | null;
  huerfano: boolean;
  /** A live process owns its server, or the server itself runs. */
  en_uso: boolean;
  bytes: number;
}

export function recordCheckout(folder: string, checkout: string, dataDir: string): void {
  const record: CheckoutRecord = { checkout, data_dir: dataDir };
  writeFileSync(join(folder, CHECKOUT_FILE), `${JSON.stringify(record)}\n`);
}

function readRecord(folder: string): CheckoutRecord | undefined {
  try {
    const r = JSON.parse(readFileSync(join(folder, CHECKOUT_FILE), 'utf8')) as CheckoutRecord;
    return typeof r.checkout === 'string' && typeof r.data_dir === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

/** The cluster folders (PG_VERSION) a relocated folder holds: its own, or an older one's. */
function dataDirsOf(folder: string, record: CheckoutRecord | undefined): string[] {
  if (record) return [record.data_dir];
  return readdirSync(folder)
    .map((name) => join(folder, name))
    .filter((dir) => existsSync(join(dir, 'PG_VERSION')));
}

function bytesOf(path: string): number {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((n, name) => n + bytesOf(join(path, name)), st.size);
}

/** Every relocated cluster under `root` (not the binaries' copy). */
export function listFallbackClusters(root: string): FallbackCluster[] {
  if (!existsSync(root)) return [];
  const out: FallbackCluster[] = [];
  for (const name of readdirSync(root).sort()) {
    const carpeta = join(root, name);
    if (!lstatSync(carpeta).isDirectory()) continue;
    const record = readRecord(carpeta);
    const dataDirs = dataDirsOf(carpeta, record);
    if (!record && dataDirs.length === 0) continue;
    out.push({
      carpeta,
      checkout: record?.checkout ?? null,
      huerfano: record !== undefined && !existsSync(record.checkout),
      en_uso: dataDirs.some(
        (d) => readRunningServer(d) !== undefined || livePostmaster(d) !== undefined,
      ),
      bytes: bytesOf(carpeta),
    });
  }
  return out;
}

/** Removes the orphans under `root` (or those of `only`, paths or names) not in use, of a known checkout. */
export function removeOrphans(root: string, only: string[] = []) {
  const clusters = listFallbackClusters(root);
  const named = (c: FallbackCluster) =>
    only.length === 0 || only.some((n) => n === c.carpeta || n === basename(c.carpeta));
  for (const n of only) {
    if (!clusters.some((c) => n === c.carpeta || n === basename(c.carpeta)))
      throw new DomainError('VALIDATION_FAILED', `${n} is no relocated cluster under ${root}`);
  }
  const result = {
    borrados: [] as string[],
    conservados: [] as Array<{ carpeta: string; motivo: string }>,
  };
  for (const c of clusters.filter(named)) {
    const motivo =
      c.checkout === null
        ? 'its checkout is unknown (made before the record was kept): remove it by hand if that checkout is gone'
        : !c.huerfano
          ? `its checkout ${c.checkout} exists`
          : c.en_uso
            ? 'its server is running'
            : undefined;
    if (motivo) {
      result.conservados.push({ carpeta: c.carpeta, motivo });
      continue;
    }
    rmSync(c.carpeta, { recursive: true, force: true });
    result.borrados.push(c.carpeta);
  }
  return result;
}
