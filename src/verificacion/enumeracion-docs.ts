/**
 * How the routes naming a CUIR document the budget of unknown CUIRs they share with verification
 * by CUIR (SPEC 9.1.6, 11.5): one text, so they all say the same.
 */

/** The rule, for an operation's description. */
export const MISSES_TEXT =
  "a 404 of any route naming a CUIR — this one, verification by CUIR, reservation, dispensation, reversal, release — spends the client's VERIFICACION_FALLOS_POR_MINUTO (default 20) a minute; past it, every one of those routes answers it 429 RATE_LIMITED until the minute ends, found ones too";

/** Appended to a 404's description. */
export const MISSES_404 = '(counted towards VERIFICACION_FALLOS_POR_MINUTO)';

/** The 429's description. */
export const MISSES_429 =
  "RATE_LIMITED: over the client's requests per minute, too many failed authentications from this address, or past VERIFICACION_FALLOS_POR_MINUTO unknown CUIRs or ids this minute (verification, reservation, dispensation, reversal and release are refused until the minute ends, found ones too); wait Retry-After seconds";
