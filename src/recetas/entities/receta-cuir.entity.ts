import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A registered CUIR and its prescription (`recetas_cuir`): "one registration per CUIR" across
 * `recetas`' partitions, and a read by CUIR's way to the id. Written only by `recetas`' insert
 * trigger; its BRIN index on the id cannot be declared here.
 */
@Entity('recetas_cuir')
export class RecetaCuirEntity {
  @PrimaryColumn('char', { length: 41, primaryKeyConstraintName: 'recetas_cuir_pkey' })
  cuir: string;
  @Column('bigint') id_transaccion: string;
}
