import { defineSlice } from '../common/module-slice.js';
import { IdempotencyAnswerBytes1763900000000 } from './migrations/1763900000000-IdempotencyAnswerBytes.js';

/**
 * Idempotency-Key support for any POST (contract §3). Its table was created by the recetas
 * migration (committed migrations are never split); later changes live here. Its Nest module is
 * imported by the modules that use it.
 */
export const idempotencySlice = defineSlice({
  name: 'idempotency',
  migrations: [IdempotencyAnswerBytes1763900000000],
});
