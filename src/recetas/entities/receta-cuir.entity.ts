import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A registered CUIR and its prescription (`recetas_cuir`): "one registration per CUIR" across
 * every month's partition of `recetas` (a partitioned table's unique index must hold its
 * partition key), and the way a read by CUIR finds the id that prunes it to one partition.
 * Written only by the trigger on `recetas`' inserts (`recetas_al_insertar`), never by the
 * service. Unpartitioned and narrow; a month's drop deletes its rows by id range (a BRIN
 * index, which @Index cannot declare).
 */
@Entity('recetas_cuir')
export class RecetaCuirEntity {
  @PrimaryColumn('char', { length: 41, primaryKeyConstraintName: 'recetas_cuir_pkey' })
  cuir: string;
  @Column('bigint') id_transaccion: string;
}
