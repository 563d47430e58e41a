import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

const ASK = 'prs:metrics:ask';
const ANSWER = 'prs:metrics:answer';
const TIMEOUT_MS = 5000;

interface Answer {
  type: typeof ANSWER;
  id: string;
  text?: string;
  error?: string;
}

/** In a cluster's primary: answers a worker's /metrics with every worker's registry aggregated. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, msg: { type?: string; id?: string }) => {
    if (msg?.type !== ASK || !msg.id) return;
    const id = msg.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text }),
      (err: unknown) => worker.send({ type: ANSWER, id, error: String(err) }),
    );
  });
}

/** What /metrics answers: in a cluster's worker, the primary's aggregate; else its registry. */
export function metricsSource(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker) return () => registry.metrics();
  // Made, it answers the primary's requests for this worker's metrics (this registry's).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const pending = new Map<string, (a: Answer) => void>();
  process.on('message', (msg: Answer) => {
    if (msg?.type === ANSWER) pending.get(msg.id)?.(msg);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the primary did not answer with the metrics in time'));
      }, TIMEOUT_MS);
      pending.set(id, (a) => {
        clearTimeout(timer);
        pending.delete(id);
        if (a.text !== undefined) resolve(a.text);
        else reject(new Error(a.error ?? 'no metrics'));
      });
      process.send?.({ type: ASK, id });
    });
}
