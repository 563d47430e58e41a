/**
 * Jest setup (setupFilesAfterEnv of the e2e and reliability projects): every answer a test
 * receives through supertest is checked against the OpenAPI document the answering server
 * serves (openapi-contract.ts) before the test's own expectations run; a violation fails the
 * request with a ContractViolation naming the operation, the status and the schema path.
 * New endpoints are covered with no extra work. OPENAPI_CONTRACT_CHECK=off disables it.
 */
import supertest from 'supertest';
import { ContractViolation, contractProblem, prefetchContract } from './served-contracts.js';

interface TestLike {
  method: string;
  url: string;
}
interface SuperagentResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}
type Assert = (
  this: TestLike,
  resError: Error | null,
  res: SuperagentResponse | undefined,
  fn?: (err: Error | null, res?: SuperagentResponse) => void,
) => void;

type End = (this: TestLike, fn?: unknown) => unknown;
const Test = (supertest as unknown as { Test: { prototype: { assert: Assert; end: End } } }).Test;
const original = Test.prototype.assert;
const originalEnd = Test.prototype.end;

// Fetch the document while the request is on its way, not after its answer.
Test.prototype.end = function (this: TestLike, fn) {
  // (A server object supertest starts itself has no port in the URL until it listens.)
  const url = URL.canParse(this.url) ? new URL(this.url) : undefined;
  if (url?.port) prefetchContract(url.origin);
  return originalEnd.call(this, fn);
};

Test.prototype.assert = function (this: TestLike, resError, res, fn) {
  if (!res) return original.call(this, resError, res, fn);
  const url = new URL(this.url);
  contractProblem(url.origin, {
    method: this.method,
    url: `${url.pathname}${url.search}`,
    status: res.status,
    headers: res.headers,
    body: res.body,
    text: res.text ?? '',
  }).then(
    (problem) => {
      if (!problem) return original.call(this, resError, res, fn);
      const violation = new ContractViolation(`OpenAPI contract: ${problem}`);
      // The contract first; the test's own expectations still run and are reported too.
      original.call(this, resError, res, (err) => {
        if (err) violation.message += `\n(and the test's expectation: ${err.message})`;
        fn?.call(this, violation, res);
      });
    },
    (err: Error) => fn?.call(this, err, res),
  );
};
