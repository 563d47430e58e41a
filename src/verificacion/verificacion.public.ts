/**
 * What the verificacion module shares besides its services (.dependency-cruiser.cjs): the one
 * budget of unknown CUIRs every route naming a CUIR spends (SPEC 9.1.6, 11.5), and one text
 * for its documentation, so they all say the same.
 */
export { EnumeracionLimiter } from './enumeracion-limiter.js';
export { CountsCuirMisses, EnumeracionGuard } from './enumeracion.guard.js';

/** The rule, for an operation's description. */
export const MISSES_TEXT =
  "a 404 of any route naming a CUIR — this one, verification by CUIR, reservation, dispensation, reversal, release — spends the client's VERIFICACION_FALLOS_POR_MINUTO (default 20) a minute; past it, every one of those routes answers it 429 RATE_LIMITED until the minute ends, found ones too";

/** Appended to a 404's description. */
export const MISSES_404 = '(counted towards VERIFICACION_FALLOS_POR_MINUTO)';

/** The 429's description. */
export const MISSES_429 =
  "RATE_LIMITED: over the client's requests per minute, too many failed authentications from this address, or past VERIFICACION_FALLOS_POR_MINUTO unknown CUIRs or ids this minute (verification, reservation, dispensation, reversal and release are refused until the minute ends, found ones too); wait Retry-After seconds";
