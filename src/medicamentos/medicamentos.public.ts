/**
 * What the medicamentos module shares with the others besides its services (the layer rule of
 * .dependency-cruiser.cjs: another module imports only a module's root *.module.ts, *.slice.ts,
 * *.service.ts and this file).
 */
export * from './medicamento-desconocido.js';
