// What the webhooks module shares besides its services (the layer rule of .dependency-cruiser.cjs).
export * from './webhook-sender.js';
export * from './webhook-url-policy.js';
