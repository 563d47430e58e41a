import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One prescription item of a dispensation. `revertida` is its dispensation's, copied by the
 * database (foreign key ON UPDATE CASCADE): the unique index over the items not reversed is
 * what keeps an item from being dispensed twice.
 */
@Entity('dispensa_items')
export class DispensaItemEntity {
  @PrimaryColumn('uuid') id_dispensa: string;
  /** Position in the prescription, from 1. */
  @PrimaryColumn('smallint') item: number;
  @Column('bigint') id_transaccion: string;
  @Column('integer') cantidad: number;
  @Column('varchar', { length: 32, nullable: true }) codigo: string | null;
  @Column('boolean', { default: false }) sustituido: boolean;
  @Column('boolean', { default: false }) revertida: boolean;
}
