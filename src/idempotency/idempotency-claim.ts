import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { CompanionStatement, SqlParams } from '../common/sql/sql-params.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { completeKeySql } from './idempotency.repository.js';

/**
 * The Idempotency-Key this request holds (claimed by IdempotencyInterceptor before the handler
 * runs). A handler that writes in one statement can store its answer in that same statement
 * (`completion`), which saves the interceptor's own UPDATE afterwards and means a committed
 * registration can never be left with an unanswered key.
 */
export class IdempotencyClaim {
  private completedInHandler = false;

  constructor(
    readonly clientId: string,
    /** The key, lower-cased. */
    readonly key: string,
    /** The status the handler answers with on success. */
    readonly successStatus: number,
  ) {}

  /**
   * A companion statement storing `{ data }` as this key's answer, with the new row's id
   * written at `data.<idField>` (the id only exists inside the statement). Call
   * `markCompleted()` once the statement has committed.
   */
  completion(data: Record<string, unknown>, idField: string): CompanionStatement {
    return (p: SqlParams, source: string) =>
      completeKeySql(
        p,
        this.clientId,
        this.key,
        this.successStatus,
        `jsonb_set(${p.add(JSON.stringify({ data }))}::jsonb, ${p.add(['data', idField])}::text[], to_jsonb(${source}.id::text))`,
        source,
      );
  }

  markCompleted(): void {
    this.completedInHandler = true;
  }

  get completed(): boolean {
    return this.completedInHandler;
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
