import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One dispensation: what a pharmacy gave of a prescription, and whether it was reversed; its items are DispensaItemEntity rows. */
@Entity('dispensas')
export class DispensaEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('bigint') id_transaccion: string;
  /** The dispensing client (only it reads or reverses the dispensation). */
  @Column('uuid') client_id: string;
  @Column('char', { length: 11 }) farmacia_cuit: string;
  @Column('varchar', { length: 200 }) farmacia_nombre: string;
  @Column('timestamptz') fecha_dispensa: Date;
  @Column('uuid', { nullable: true }) reserva_id: string | null;
  /** When it was recorded: the reversal window runs from here. */
  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('boolean', { default: false }) revertida: boolean;
  @Column('timestamptz', { nullable: true }) revertida_at: Date | null;
  @Column('varchar', { length: 200, nullable: true }) motivo_reversion: string | null;
}
