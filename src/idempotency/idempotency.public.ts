/** What the idempotency module shares with the others besides its services (.dependency-cruiser.cjs). */
export * from './idempotency-claim.js';
export * from './idempotent.decorator.js';
