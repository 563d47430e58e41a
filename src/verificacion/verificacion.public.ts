/**
 * What the verificacion module shares with the others besides its services (the layer rule of
 * .dependency-cruiser.cjs): the one budget of unknown CUIRs every route naming a CUIR spends.
 */
export { EnumeracionLimiter } from './enumeracion-limiter.js';
export { CountsCuirMisses, EnumeracionGuard } from './enumeracion.guard.js';
export { MISSES_404, MISSES_429, MISSES_TEXT } from './enumeracion-docs.js';
