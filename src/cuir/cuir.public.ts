// What the cuir module shares besides its services (the layer rule of .dependency-cruiser.cjs).
export * from './cuir-format.js';
export * from './cuir-patterns.js';
