/**
 * Which of `$1` (codes) the mirror holds. On the registration's path (SPEC 9.2: a registration
 * that carries codes refuses unknown ones): codigos-catalogo.ts caches the answers and batches
 * the misses of one turn of the event loop into this one statement.
 */
export const EXISTING_CODES_SQL = 'SELECT code FROM medicamentos WHERE code = ANY($1::text[])';
