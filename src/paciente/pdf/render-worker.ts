/**
 * A PDF render worker thread (see render-pool.ts): parses the fonts once, then renders each
 * view it is sent with the same pure function the service used to call, so the bytes are the
 * same. Loaded from dist/ (render-pool resolves the file), never imported by the app.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { renderRecetaPdf } from '../receta-pdf.js';
import type { RecetaPdfView } from '../receta-pdf-view.js';
import { pdfFonts } from './pdf-fonts.js';
import type { RenderReply, RenderRequest } from './render-messages.js';

const RENDER_NICENESS = 10;

const port = parentPort;
if (!port) throw new Error('render-worker.js runs as a worker thread only');

/**
 * Renders yield the CPU to the request thread: on Linux this lowers this thread's priority only
 * (setpriority acts per thread there), so health checks and other clients' requests keep
 * their latency while every worker is busy. Best effort: elsewhere it may act on the process,
 * or be refused.
 */
try {
  setPriority(RENDER_NICENESS);
} catch {
  // Not allowed here: renders run at the process's priority.
}
pdfFonts();
port.on('message', (job: RenderRequest) => {
  renderRecetaPdf(job.view as RecetaPdfView).then(
    (pdf) => port.postMessage({ id: job.id, pdf } satisfies RenderReply),
    (err: unknown) =>
      port.postMessage({
        id: job.id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies RenderReply),
  );
});
port.postMessage({ ready: true } satisfies RenderReply);
