import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The opening of a month in the sequence of a table partitioned by id (`particiones_aperturas`,
 * written by asegurarParticiones): from `at` on, the sequence draws from `primer_id` up.
 */
@Entity('particiones_aperturas')
export class AperturaEntity {
  /** The sequence, by the table and column it fills (`recetas.id_transaccion`). */
  @PrimaryColumn('text') secuencia: string;
  /** The month's first day. */
  @PrimaryColumn('date') periodo: string;
  @Column('bigint') primer_id: string;
  @Column('timestamptz') at: Date;
}
