// What the ministerio module shares besides its services (layer rule: .dependency-cruiser.cjs).
export * from './ministerio.client.js';
