import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Lets a request learn that it is about to wait on something slow — an upstream registry
 * call, a cache miss that loads from one — without the code that waits knowing who listens.
 * The idempotency layer listens: before such a wait it writes the request's key as in
 * progress, so a duplicate sent meanwhile gets 409 IDEMPOTENCY_KEY_IN_PROGRESS (contract §3), while
 * a request that waits on nothing takes its key in its own write (one round trip).
 */
const listeners = new AsyncLocalStorage<() => Promise<void>>();

/** Runs `work` with `listener` told of every slow wait inside it (the listener must be idempotent). */
export function onSlowWork<T>(listener: () => Promise<void>, work: () => T): T {
  return listeners.run(listener, work);
}

/**
 * Called right before waiting on something slow: the listener's promise, or undefined when
 * nobody listens (so a caller that must stay synchronous then can).
 */
export function beforeSlowWork(): Promise<void> | undefined {
  return listeners.getStore()?.();
}
