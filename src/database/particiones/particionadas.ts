/**
 * A table partitioned by month, as a module's slice declares it (`partitionedTables`). The
 * migration that partitions it decides the key; this says how its months are bounded and who
 * it moves with.
 */
export interface PartitionedTable {
  table: string;
  /** `id`: month-tied id ranges (periodos.ts); `tiempo`: the month's instants. */
  rango: 'id' | 'tiempo';
  /**
   * `id` tables that draw their own ids: the column whose sequence (serial or identity) is
   * moved up to each month's first id when the month opens.
   */
  sequenceOf?: string;
  /**
   * The table whose ids this one's rows carry (`receta_historial` follows `recetas`): its
   * months are created with that table's and dropped before them (their foreign keys point there).
   */
  sigue?: string;
}
