import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor, SETTLED_IN_WRITE } from './idempotency.interceptor.js';

export interface IdempotentOptions {
  /**
   * The handler gates its one write on `IdempotencyClaim.settleWith`, so the key need not be
   * written before it runs (one round trip saved); it is held before any slow wait instead.
   */
  settledInWrite?: boolean;
}

/**
 * Makes a POST idempotent under an optional `Idempotency-Key` header (a UUID): the first
 * answer (2xx or 4xx) is stored for 24 h per client and key and replayed for the same
 * request (method, actual path, body); a different body or path, or a still-running first
 * request, answers 409.
 */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    SetMetadata(SETTLED_IN_WRITE, options.settledInWrite === true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        "A client-generated UUID. A key is scoped to the calling client and shared by all its endpoints: it names one request, by its method, its actual path (the ids in it included) and its body. Same key, same path and same body within 24 h: the first answer is replayed (header Idempotent-Replayed: true). Same key with a different body, or on another path (another endpoint, or another prescription or dispensation): 409 IDEMPOTENCY_KEY_REUSED, never the other request's answer. First request still running: 409 IDEMPOTENCY_KEY_IN_PROGRESS (while it waits on an upstream registry; a duplicate arriving while the first is being written waits a few milliseconds and gets the replay). 4xx answers are stored and replayed byte for byte; 5xx are not, so a retry runs again.",
      schema: { type: 'string', format: 'uuid' },
    }),
  );
