import {
  MI_ARGENTINA_AUDIENCE,
  miArgentinaIssuer,
  miArgentinaJwksUrl,
} from '../../sandbox/mi-argentina.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.js';
import { DomainError } from '../common/errors/domain-error.js';
import { isValidCuil } from './cuil.js';
import { CitizenTokenRejected, CitizenTokenVerifier } from './citizen-token.verifier.js';

// The wiring the integrator will do with the sandbox in use: the three settings defaulting to
// the sandbox's issuer, checked against tokens the sandbox signs over real HTTP.
let sandbox: RunningSandbox;
let verifier: CitizenTokenVerifier;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  verifier = new CitizenTokenVerifier({
    jwksUrl: miArgentinaJwksUrl(sandbox.url),
    issuer: miArgentinaIssuer(sandbox.url),
    audience: MI_ARGENTINA_AUDIENCE,
    timeoutMs: 3000,
  });
});
afterAll(() => sandbox.close());

async function sandboxToken(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${sandbox.url}/__sandbox/mi-argentina/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { token: string }).token;
}

describe('CitizenTokenVerifier with the sandbox as Mi Argentina', () => {
  it("accepts the sandbox's token and returns the fixture patient's CUIL", async () => {
    const cuil = await verifier.verify(await sandboxToken({ cuil: '27301112225' }));
    expect(cuil).toBe('27301112225');
    expect(isValidCuil(cuil)).toBe(true);
  });

  it('passes a bad check digit through for the endpoint to answer 404', async () => {
    const cuil = await verifier.verify(await sandboxToken({ cuil: '27301112226' }));
    expect(isValidCuil(cuil)).toBe(false);
  });

  it('refuses a sandbox token living longer than 300 s', async () => {
    const err = await verifier
      .verify(await sandboxToken({ cuil: '27301112225', ttl_seconds: 301 }))
      .catch((e: unknown) => e);
    expect((err as DomainError).code).toBe('UNAUTHENTICATED');
    expect(((err as DomainError).cause as CitizenTokenRejected).reason).toBe('lifetime');
  });
});
