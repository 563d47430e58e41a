import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What the pool and its worker threads say to each other (render-worker.ts). */
export type RenderRequest = { id: number; view: unknown };
export type RenderReply =
  { ready: true } | { id: number; pdf: Uint8Array } | { id: number; error: string };

/** A render takes tens of milliseconds; one this late is stuck, and its worker is replaced. */
const RENDER_TIMEOUT_MS = 15_000;

/** All workers busy and the queue full: the caller answers 503 rather than wait. */
export class RenderPoolFull extends Error {}
/** The pool was closed (the app is shutting down). */
export class RenderPoolClosed extends Error {}

/**
 * The built worker beside the nearest package.json: a worker thread cannot load TypeScript, and
 * under ts-jest the app runs from src/ (the test command builds dist/ first).
 */
export function renderWorkerFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`No package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  const file = join(dir, 'dist/src/paciente/pdf/render-worker.js');
  if (!existsSync(file)) {
    throw new Error(`The PDF render worker ${file} is missing: build the service (npm run build)`);
  }
  return file;
}

export interface RenderPoolOptions {
  workerFile: string;
  /** Workers, each rendering one document at a time. */
  size: number;
  /** Renders that may wait for a worker; beyond them render() rejects with RenderPoolFull. */
  queue: number;
  /** A replacement worker that could not start (logged; the pool runs with one fewer). */
  onWorkerError?: (err: Error) => void;
  /**
   * Each worker's old-generation heap, MB (default 96, a few MB beyond the fonts): a runaway
   * document's worker dies alone (ERR_WORKER_OUT_OF_MEMORY) and is replaced.
   */
  heapMb?: number;
}

interface Job {
  view: unknown;
  resolve: (pdf: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job & { id: number; timer: NodeJS.Timeout };
  failure?: Error;
}

/**
 * Long-lived worker threads that render off the event loop: at most `size` at once and `queue`
 * waiting, the rest refused at once. A worker that crashes or hangs is replaced; one that cannot
 * start fails start().
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private started?: Promise<void>;
  private closed = false;

  constructor(private readonly opts: RenderPoolOptions) {}

  /** Starts the workers; resolves once each has parsed its fonts. Idempotent. */
  start(): Promise<void> {
    this.started ??= Promise.all(Array.from({ length: this.opts.size }, () => this.spawn())).then(
      () => undefined,
    );
    return this.started;
  }

  render(view: unknown): Promise<Buffer> {
    if (this.closed) return Promise.reject(new RenderPoolClosed('The PDF render pool is closed'));
    void this.start().catch(() => undefined); // a failed start is reported by start()'s caller
    const idle = this.slots.find((s) => !s.job);
    if (!idle && this.waiting.length >= this.opts.queue) {
      return Promise.reject(new RenderPoolFull('Every PDF render worker is busy'));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const job = { view, resolve, reject };
      if (idle) this.assign(idle, job);
      else this.waiting.push(job);
    });
  }

  /** Refuses what waits and stops every worker (in-flight renders are rejected). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) {
      job.reject(new RenderPoolClosed('The PDF render pool is closed'));
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Promise<void> {
    const worker = new Worker(this.opts.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb ?? 96 },
    });
    // Never what keeps a process alive: close() ends them, and a CLI or test need not.
    worker.unref();
    const slot: Slot = { worker };
    this.slots.push(slot);
    let ready = false;
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (m: RenderReply) => {
        if ('ready' in m) {
          ready = true;
          resolve();
        } else this.settle(slot, m);
      });
      worker.on('error', (err) => (slot.failure = err));
      worker.on('exit', (code) => {
        this.slots.splice(this.slots.indexOf(slot), 1);
        const job = slot.job;
        slot.job = undefined;
        const why = slot.failure ?? new Error(`PDF render worker exited with code ${code}`);
        if (job) {
          clearTimeout(job.timer);
          job.reject(why);
        }
        if (!ready) {
          reject(new Error(`The PDF render worker could not start: ${why.message}`));
          // No worker left to take what waits: refuse it rather than leave it hanging.
          if (this.slots.length === 0) this.waiting.splice(0).forEach((j) => j.reject(why));
        } else if (!this.closed) {
          this.spawn().catch((err: Error) => this.opts.onWorkerError?.(err));
          this.drain();
        }
      });
      this.drain();
    });
  }

  private settle(slot: Slot, m: Exclude<RenderReply, { ready: true }>): void {
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    if ('pdf' in m) job.resolve(Buffer.from(m.pdf.buffer, m.pdf.byteOffset, m.pdf.byteLength));
    else job.reject(new Error(m.error));
    this.drain();
  }

  private drain(): void {
    for (const slot of this.slots) {
      if (this.waiting.length === 0) return;
      if (!slot.job) this.assign(slot, this.waiting.shift() as Job);
    }
  }

  private assign(slot: Slot, job: Job): void {
    const id = this.nextId++;
    const timer = setTimeout(() => {
      slot.failure = new Error(`PDF render timed out after ${RENDER_TIMEOUT_MS} ms`);
      void slot.worker.terminate();
    }, RENDER_TIMEOUT_MS);
    timer.unref();
    slot.job = { ...job, id, timer };
    slot.worker.postMessage({ id, view: job.view });
  }
}
