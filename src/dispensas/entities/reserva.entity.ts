import { Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** A dispenser's hold on a prescription (contract §7): live while unexpired, unreleased, unconsumed. */
@Entity('dispensa_reservas')
/** The live one of a prescription (vence_at DESC in the migration: @Index has no direction). */
@Index('dispensa_reservas_receta', ['id_transaccion', 'vence_at'], {
  where: 'liberada_at IS NULL AND consumida_at IS NULL',
})
/** The turn rule: the caller's last reservation that ended without a dispensation. */
@Index('dispensa_reservas_turno', ['id_transaccion', 'client_id'], {
  where: 'consumida_at IS NULL',
})
/** Read by its own id alone (id_transaccion leads the key). */
@Index('dispensa_reservas_id', ['id'])
export class ReservaEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @PrimaryColumn('bigint')
  @ForeignKey('recetas', 'id_transaccion', { name: 'dispensa_reservas_id_transaccion_fkey' })
  id_transaccion: string;

  @Column('uuid')
  @ForeignKey('api_clients', 'id', { name: 'dispensa_reservas_client_id_fkey' })
  client_id: string;

  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('timestamptz') vence_at: Date;
  @Column('timestamptz', { nullable: true }) liberada_at: Date | null;
  @Column('timestamptz', { nullable: true }) consumida_at: Date | null;
}
