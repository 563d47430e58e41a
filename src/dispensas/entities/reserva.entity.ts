import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A dispenser's hold on a prescription while it checks stock with the patient (contract §7).
 * Its state comes from its times: live while `vence_at` is ahead and it was neither released
 * nor consumed by a dispensation.
 */
@Entity('dispensa_reservas')
export class ReservaEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('bigint') id_transaccion: string;
  @Column('uuid') client_id: string;
  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('timestamptz') vence_at: Date;
  @Column('timestamptz', { nullable: true }) liberada_at: Date | null;
  @Column('timestamptz', { nullable: true }) consumida_at: Date | null;
}
