import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { CompanionStatement, SqlParams } from '../common/sql/sql-params.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { holdKeyGateSql, takeKeyGateSql } from './idempotency.repository.js';
import type { StoredOutcome } from './idempotency.service.js';

/**
 * The Idempotency-Key a request carries, as its handler sees it.
 *
 * On a route marked `@Idempotent({ settledInWrite: true })` the key is not written before the
 * handler runs: the handler's own statement takes it and stores the answer (`settleWith`), so
 * a registration costs one round trip rather than two. A duplicate that reaches the database
 * while that statement runs waits for it and is answered with the replay. A handler about to
 * wait on something slow (an upstream registry) calls `hold()` first, which writes the key as
 * in progress at once, so that a duplicate meanwhile gets 409 IDEMPOTENCY_KEY_IN_PROGRESS
 * (SPEC 3). On any other route the interceptor holds the key before the handler runs.
 */
export class IdempotencyClaim {
  private isHeld = false;
  private isSettled = false;

  constructor(
    readonly clientId: string,
    /** The key, lower-cased. */
    readonly key: string,
    /** The canonical hash of the request (method, route, body). */
    readonly requestHash: string,
    /** The status the handler answers with on success. */
    readonly successStatus: number,
    /** Writes the key as in progress; resolves with a stored answer to replay, if any. */
    private readonly claimNow: () => Promise<StoredOutcome | null>,
  ) {}

  /**
   * Writes the key as in progress now (one round trip). Throws StoredAnswer when an identical
   * request was answered already, or the 409 of a key in use; no-op when held already.
   */
  async hold(): Promise<void> {
    if (this.isHeld) return;
    const stored = await this.claimNow();
    if (stored) throw new StoredAnswer(stored);
    this.isHeld = true;
  }

  /**
   * The statement that settles the key inside the handler's write, storing `{ data }` as its
   * answer with the new row's id (column `id` of `source`, allocated before the row is
   * written) at `data.<idField>`. It returns a row only when this request may write: the write
   * must be gated on it, and a refused write answered by throwing `IdempotencyKeyTaken`.
   * Call `markSettled()` once the statement has committed.
   */
  settleWith(data: Record<string, unknown>, idField: string): CompanionStatement {
    return (p: SqlParams, source: string) => {
      const answer = `jsonb_set(${p.add(JSON.stringify({ data }))}::jsonb, ${p.add(['data', idField])}::text[], to_jsonb(${source}.id::text))`;
      const gate = this.isHeld ? holdKeyGateSql : takeKeyGateSql;
      return gate(p, this, answer, source);
    };
  }

  markSettled(): void {
    this.isSettled = true;
  }

  get held(): boolean {
    return this.isHeld;
  }

  get settled(): boolean {
    return this.isSettled;
  }
}

/**
 * Thrown by a handler whose write `settleWith` refused: another request holds or answered
 * the key. The interceptor answers with that request's outcome (replay or 409).
 */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('The Idempotency-Key was taken by another request');
  }
}

/** Thrown by `hold()` when an identical request was answered already: the interceptor replays. */
export class StoredAnswer extends Error {
  constructor(readonly outcome: StoredOutcome) {
    super('An identical request was answered already');
  }
}

/** Attached to the request by IdempotencyInterceptor; absent when the request has no key. */
export interface RequestWithClaim extends RequestWithContext {
  idempotencyClaim?: IdempotencyClaim;
}

/** The request's IdempotencyClaim, or undefined when it came without an Idempotency-Key. */
export const CurrentIdempotencyClaim = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): IdempotencyClaim | undefined =>
    ctx.switchToHttp().getRequest<RequestWithClaim>().idempotencyClaim,
);
