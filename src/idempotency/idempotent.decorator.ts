import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

/**
 * Makes a POST idempotent under an optional `Idempotency-Key` header (a UUID): the first
 * answer (2xx or 4xx) is stored for 24 h per client and key and replayed for the same
 * request; a different body or a still-running first request answers 409.
 */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'A client-generated UUID. Same key and same body within 24 h: the first answer is replayed (header Idempotent-Replayed: true). Same key, different body: 409 IDEMPOTENCY_KEY_REUSED. First request still running: 409 IDEMPOTENCY_KEY_IN_PROGRESS. 4xx answers are stored and replayed; 5xx are not, so a retry runs again.',
      schema: { type: 'string', format: 'uuid' },
    }),
  );
