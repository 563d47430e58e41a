/**
 * Reading PDFs the way a person or a scanner would, with Debian's poppler-utils (pdftotext,
 * pdftoppm, pdfinfo) and zbar-tools (zbarimg). `.ci/run` installs them; on a machine without
 * them, only the assertions that need a missing tool are skipped, each with a printed line
 * saying what was not checked and how to install what is missing.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type PdfTool = 'pdftotext' | 'pdftoppm' | 'pdfinfo' | 'zbarimg';

const PACKAGE: Record<PdfTool, string> = {
  pdftotext: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  pdfinfo: 'poppler-utils',
  zbarimg: 'zbar-tools',
};

const found = new Map<PdfTool, boolean>();

/** Whether `tool` is an executable on PATH (looked up once per process). */
export function hasTool(tool: PdfTool): boolean {
  let ok = found.get(tool);
  if (ok === undefined) {
    ok = (process.env.PATH ?? '').split(delimiter).some((dir) => {
      try {
        accessSync(join(dir, tool), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    found.set(tool, ok);
  }
  return ok;
}

/**
 * Runs `check` when every tool is installed; otherwise prints why `what` was not checked and
 * returns, so the rest of the test still runs.
 */
export async function withTools(
  tools: PdfTool[],
  what: string,
  check: () => Promise<void>,
): Promise<void> {
  const missing = tools.filter((t) => !hasTool(t));
  if (missing.length === 0) return check();
  const packages = [...new Set(missing.map((t) => PACKAGE[t]))].join(' ');
  process.stderr.write(
    `\n  SKIPPED CHECK: ${what} — ${missing.join(', ')} not installed ` +
      `(apt-get install -y ${packages})\n`,
  );
}

async function inTempDir<T>(pdf: Buffer, use: (dir: string, file: string) => Promise<T>) {
  const dir = await mkdtemp(join(tmpdir(), 'receta-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    return await use(dir, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text of the PDF in reading order (pdftotext, UTF-8). */
export function pdfText(pdf: Buffer): Promise<string> {
  return inTempDir(pdf, async (_dir, file) => {
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
    return stdout;
  });
}

/** The page count pdfinfo reports. */
export function pdfPageCount(pdf: Buffer): Promise<number> {
  return inTempDir(pdf, async (_dir, file) => {
    const { stdout } = await run('pdfinfo', [file]);
    const match = /^Pages:\s+(\d+)$/m.exec(stdout);
    if (!match) throw new Error(`pdfinfo printed no page count:\n${stdout}`);
    return Number(match[1]);
  });
}

/**
 * Every barcode zbarimg finds on the pages rendered at `dpi` (pdftoppm -png), as zbarimg prints
 * them: "CODE-128:…", "QR-Code:…".
 */
export function pdfBarcodes(pdf: Buffer, dpi = 150): Promise<string[]> {
  return inTempDir(pdf, async (dir, file) => {
    await run('pdftoppm', ['-r', String(dpi), '-png', file, join(dir, 'page')]);
    const pngs = (await readdir(dir)).filter((f) => f.endsWith('.png')).map((f) => join(dir, f));
    // zbarimg exits 4 when it finds nothing: that is an empty answer, not an error.
    const { stdout } = await run('zbarimg', ['-q', ...pngs]).catch(
      (err: { code?: number; stdout?: string }) => {
        if (err.code === 4) return { stdout: '' };
        throw err;
      },
    );
    return stdout.split('\n').filter((line) => line.length > 0);
  });
}
