import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RenderPool } from './render-pool.js';

/**
 * The pool over stand-in workers (plain ESM files speaking render-pool.ts's RenderReply): a worker whose
 * render runs past its heap limit dies alone and is replaced; the next render is served.
 */
describe('RenderPool: a worker over its heap limit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'render-pool-'));
  const worker = join(dir, 'worker.mjs');
  writeFileSync(
    worker,
    `import { parentPort } from 'node:worker_threads';
     parentPort.postMessage({ ready: true });
     parentPort.on('message', ({ id, view }) => {
       if (view === 'runaway') {
         const hog = [];
         for (;;) hog.push(new Array(1e6).fill(Math.random()));
       }
       parentPort.postMessage({ id, pdf: new TextEncoder().encode('%PDF-' + view) });
     });`,
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('dies with ERR_WORKER_OUT_OF_MEMORY, is replaced, and the next render is served', async () => {
    const pool = new RenderPool({ workerFile: worker, size: 1, queue: 1, heapMb: 16 });
    await pool.start();
    await expect(pool.render('runaway')).rejects.toThrow(/out of memory|ERR_WORKER_OUT_OF_MEMORY/i);
    const pdf = await pool.render('ok');
    expect(pdf.toString()).toBe('%PDF-ok');
    await pool.close();
  }, 30_000);
});
