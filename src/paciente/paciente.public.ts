/** What the paciente module shares besides its services (.dependency-cruiser.cjs). */
export * from './cuil.js';
