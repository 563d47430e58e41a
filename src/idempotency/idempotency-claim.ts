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
 * The Idempotency-Key a request carries, as its handler sees it. On a route marked
 * `@Idempotent({ settledInWrite: true })` the handler's own statement takes the key and stores
 * the answer (`settleWith`), unless the interceptor held it (`hold()`, written in progress)
 * before the handler waited on anything slow; on any other route it is held before the handler.
 */
export class IdempotencyClaim {
  /** Written as in progress by this request. */
  held = false;
  /** Its answer was stored by the handler's own statement. */
  settled = false;

  constructor(
    readonly clientId: string,
    /** Lower-cased. */
    readonly key: string,
    readonly fingerprint: RequestFingerprint,
    readonly successStatus: number,
    /** Writes the key as in progress; resolves with a stored answer to replay, if any. */
    private readonly claimNow: () => Promise<StoredOutcome | null>,
  ) {}

  /** Writes the key as in progress; throws StoredAnswer for an answered twin, or the 409 of a key in use. */
  async hold(): Promise<void> {
    if (this.held) return;
    const stored = await this.claimNow();
    if (stored) throw new StoredAnswer(stored);
    this.held = true;
  }

  /**
   * The statement settling the key inside the handler's write: `answer(id)` is the success data
   * for the new row's id (column `id` of `source`), stored as the envelope's bytes. It returns a
   * row only when this request may write: gate the write on it, throw IdempotencyKeyTaken when
   * refused, and call `markSettled()` once committed.
   */
  settleWith(answer: (id: string) => unknown): CompanionStatement {
    const placeholder = `id-${randomUUID()}`;
    const text = JSON.stringify({ success: true, data: answer(placeholder) });
    return (p: SqlParams, source: string) => {
      const stored = answerWithIdSql(p, text, placeholder, source);
      return (this.held ? holdKeyGateSql : takeKeyGateSql)(p, this, stored, source);
    };
  }

  markSettled(): void {
    this.settled = true;
  }

  /** What the gates compare. */
  get requestHash(): string {
    return this.fingerprint.hash;
  }
}

/** Thrown by a handler whose write `settleWith` refused: the interceptor answers with the other request's outcome. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('The Idempotency-Key was taken by another request');
  }
}

export class StoredAnswer extends Error {
  constructor(readonly outcome: StoredOutcome) {
    super('An identical request was answered already');
  }
}

export interface RequestWithClaim extends RequestWithContext {
  idempotencyClaim?: IdempotencyClaim;
}

/** The request's IdempotencyClaim; undefined without an Idempotency-Key. */
export const CurrentIdempotencyClaim = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): IdempotencyClaim | undefined =>
    ctx.switchToHttp().getRequest<RequestWithClaim>().idempotencyClaim,
);
