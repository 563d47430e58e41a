import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Tells a request it is about to wait on something slow (an upstream call), without the waiting
 * code knowing who listens: the idempotency layer then writes its key as in progress (contract §3).
 */
const listeners = new AsyncLocalStorage<() => Promise<void>>();

/** Runs `work` with `listener` told of every slow wait inside it (the listener must be idempotent). */
export function onSlowWork<T>(listener: () => Promise<void>, work: () => T): T {
  return listeners.run(listener, work);
}

/** Called right before a slow wait: the listener's promise, or undefined when nobody listens. */
export function beforeSlowWork(): Promise<void> | undefined {
  return listeners.getStore()?.();
}
