import { defineSlice } from '../common/module-slice.js';
import { IdempotencyAnswerBytes1763900000000 } from './migrations/1763900000000-IdempotencyAnswerBytes.js';

/** Idempotency-Key support (contract §3); its table was created by the recetas migration. */
export const idempotencySlice = defineSlice({
  name: 'idempotency',
  migrations: [IdempotencyAnswerBytes1763900000000],
});
