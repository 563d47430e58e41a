/** A table partitioned by month, as a module's slice declares it (`partitionedTables`). */
export interface PartitionedTable {
  table: string;
  /** `id`: month-tied id ranges; `time`: the month's instants (periodos.ts). */
  range: 'id' | 'time';
  /** The table whose ids its rows carry: its months are created with it and dropped before. */
  follows?: string;
}
