/**
 * What the cuir module shares with the others besides its services (the layer rule of
 * .dependency-cruiser.cjs: another module imports only a module's root *.module.ts, *.slice.ts,
 * *.service.ts and this file).
 */
export * from './cuir-format.js';
export * from './cuir-patterns.js';
export * from './is-cuir.validator.js';
