/** A PDF render worker thread (render-pool.ts): parses the fonts once, then renders each view. */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { renderRecetaPdf } from '../receta-pdf.js';
import type { RecetaPdfView } from '../receta-pdf-view.js';
import { pdfFonts } from './pdf-fonts.js';
import type { RenderReply, RenderRequest } from './render-pool.js';

const port = parentPort;
if (!port) throw new Error('render-worker.js runs as a worker thread only');

// Renders yield the CPU to the request thread (on Linux setpriority acts on this thread only).
// Best effort: elsewhere it may act on the process, or be refused.
try {
  setPriority(10);
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
