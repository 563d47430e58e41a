/**
 * A table partitioned by month, as a module's slice declares it (`partitionedTables`). The
 * migration that partitions it decides the key; this says how its months are bounded and who
 * it moves with.
 */
export interface PartitionedTable {
  table: string;
  /**
   * `id`: month-tied id ranges (periodos.ts; a table drawing its own ids has its sequence moved
   * up to each month's first id when the month opens: `particiones_abrir_mes_en`); `time`:
   * the month's instants.
   */
  range: 'id' | 'time';
  /**
   * The table whose ids this one's rows carry (`receta_historial` follows `recetas`): its
   * months are created with that table's and dropped before them (their foreign keys point there).
   */
  follows?: string;
}
