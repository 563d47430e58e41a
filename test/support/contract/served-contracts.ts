import { get } from 'node:http';
import { OpenApiContract, type Exchange } from './openapi-contract.js';

/**
 * The contract of whatever server answered: the OpenAPI document it serves at /openapi.json,
 * fetched once per base URL (per test file: Jest gives each its own module registry). A
 * server that serves no such document (the sandbox, a webhook receiver) is not checked.
 */
const contracts = new Map<string, Promise<OpenApiContract | null>>();

function contractFor(origin: string): Promise<OpenApiContract | null> {
  let found = contracts.get(origin);
  if (!found) {
    found = fetchDocument(`${origin}/openapi.json`)
      .then((doc) => (typeof doc?.openapi === 'string' ? new OpenApiContract(doc) : null))
      .catch(() => {
        // Not reachable now (e.g. stopped): try again with the next answer from it.
        contracts.delete(origin);
        return null;
      });
    contracts.set(origin, found);
  }
  return found;
}

/**
 * GET a JSON document on a connection of its own, closed afterwards: a kept-alive socket
 * would hold the test worker open, and would outlive the server it belongs to.
 */
function fetchDocument(url: string): Promise<{ openapi?: unknown } | undefined> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(undefined);
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { openapi?: unknown });
        } catch {
          resolve(undefined);
        }
      });
    });
    // Never what keeps a test worker alive (a server that accepts and never answers).
    req.on('socket', (socket) => socket.unref());
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** Starts fetching the contract of `origin` (so a first answer does not wait for it). */
export function prefetchContract(origin: string): void {
  if (process.env.OPENAPI_CONTRACT_CHECK !== 'off') void contractFor(origin);
}

/** The contract violations of one exchange with the server at `origin`, if any. */
export async function contractProblem(origin: string, ex: Exchange): Promise<string | undefined> {
  if (process.env.OPENAPI_CONTRACT_CHECK === 'off') return undefined;
  const contract = await contractFor(origin);
  return contract?.check(ex);
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}
