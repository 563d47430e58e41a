import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor, SETTLED_IN_WRITE } from './idempotency.interceptor.js';

/**
 * Makes a POST idempotent under an optional `Idempotency-Key` header. `settledInWrite`: the
 * handler gates its one write on `IdempotencyClaim.settleWith` (the key is not written before).
 */
export const Idempotent = (options: { settledInWrite?: boolean } = {}) =>
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
