/**
 * A listing by time and the months it may skip (docs/architecture.md, "Partitions").
 */

/** The id sequence of recetas, as particiones_aperturas names it (its table and column). */
export const RECETAS_SEQUENCE = 'recetas.id_transaccion';

/**
 * Before which instant the months a listing from `desde` may skip were opened: a prescription's
 * fecha_creacion is at most 5 minutes ahead of its registration (contract §3), where its id was
 * drawn; an hour is the margin for the clocks of the service's hosts and the database's. Every
 * row with fecha_creacion ≥ desde has an id ≥ what the sequence drew from then on
 * (Aperturas.primerIdDesde); the rows of before partitioning were all drawn before the first
 * opening. docs/architecture.md, "Partitions".
 */
export const aperturaAntesDe = (desde: Date): Date => new Date(desde.getTime() - 3_600_000);
