// What the ministerio module shares besides its services (the layer rule of .dependency-cruiser.cjs).
export * from './ministerio.client.js';
