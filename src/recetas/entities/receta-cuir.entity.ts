import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/**
 * A registered CUIR and its prescription (`recetas_cuir`): "one registration per CUIR" across
 * every month's partition of `recetas` (a partitioned table's unique index must hold its
 * partition key), and the way a read by CUIR finds the id that prunes it to one partition.
 * Unpartitioned and narrow; a month's drop deletes its rows by id range (a BRIN index, which
 * @Index cannot declare).
 */
@Entity('recetas_cuir')
/** The target of recetas' (cuir, id_transaccion) foreign key. */
@Unique('recetas_cuir_receta', ['cuir', 'id_transaccion'])
export class RecetaCuirEntity {
  @PrimaryColumn('char', { length: 41, primaryKeyConstraintName: 'recetas_cuir_pkey' })
  cuir: string;
  @Column('bigint') id_transaccion: string;
}
