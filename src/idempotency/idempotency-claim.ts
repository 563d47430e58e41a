import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestWithContext } from '../common/http/request-context.js';
import type { CompanionStatement, SqlParams } from '../common/sql/sql-params.js';
import type { RequestFingerprint } from './canonical-hash.js';
import { answerWithIdSql, holdKeyGateSql, takeKeyGateSql } from './idempotency.sql.js';

/** An answer stored under a key: its status and its exact bytes. */
export interface StoredOutcome {
  status: number;
  text: string;
}

/**
 * The Idempotency-Key a request carries, as its handler sees it.
 *
 * On a route marked `@Idempotent({ settledInWrite: true })` the key is not written before the
 * handler runs: the handler's own statement takes it and stores the answer (`settleWith`), so
 * the write costs one round trip. A duplicate that reaches the database while that statement
 * runs waits for it and is answered with the replay. Before the handler waits on anything slow
 * (see common/http/slow-work.ts) the interceptor holds the key (`hold()`): it is written as in
 * progress at once, so a duplicate meanwhile gets 409 IDEMPOTENCY_KEY_IN_PROGRESS (contract §3). On
 * any other route the interceptor holds the key before the handler runs.
 */
export class IdempotencyClaim {
  private isHeld = false;
  private isSettled = false;

  constructor(
    readonly clientId: string,
    /** The key, lower-cased. */
    readonly key: string,
    /** The request's fingerprint (method, path, canonical body, under the server's key). */
    readonly fingerprint: RequestFingerprint,
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
   * The statement that settles the key inside the handler's write. `answer(id)` is the
   * handler's success data for the new row's id (column `id` of `source`, allocated before the
   * row is written); its bytes, as the envelope will send them, are stored with the id filled
   * in by the database. The statement returns a row only when this request may write: the
   * write must be gated on it, and a refused write answered by throwing IdempotencyKeyTaken.
   * Call `markSettled()` once it has committed.
   */
  settleWith(answer: (id: string) => unknown): CompanionStatement {
    const placeholder = `id-${randomUUID()}`;
    const text = JSON.stringify({ success: true, data: answer(placeholder) });
    return (p: SqlParams, source: string) => {
      const stored = answerWithIdSql(p, text, placeholder, source);
      return (this.isHeld ? holdKeyGateSql : takeKeyGateSql)(p, this, stored, source);
    };
  }

  markSettled(): void {
    this.isSettled = true;
  }

  /** The fingerprint the key is stored with (what the gates compare). */
  get requestHash(): string {
    return this.fingerprint.hash;
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
