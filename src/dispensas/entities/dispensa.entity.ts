import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';

/** One dispensation: what a pharmacy gave of a prescription, and whether it was reversed; its items are DispensaItemEntity rows. */
@Entity('dispensas')
@Index('dispensas_receta', ['id_transaccion', 'created_at'])
@Check('dispensas_check', 'revertida = (revertida_at IS NOT NULL)')
@Check('dispensas_check1', 'revertida = (motivo_reversion IS NOT NULL)')
@Unique('dispensas_id_revertida_key', ['id_transaccion', 'id', 'revertida'])
/** Read by its own id alone (id_transaccion leads the key). */
@Index('dispensas_id', ['id'])
@ForeignKey('dispensa_reservas', ['id_transaccion', 'reserva_id'], ['id_transaccion', 'id'], {
  name: 'dispensas_reserva_id_fkey',
})
export class DispensaEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @PrimaryColumn('bigint')
  @ForeignKey('recetas', 'id_transaccion', { name: 'dispensas_id_transaccion_fkey' })
  id_transaccion: string;

  @Column('uuid')
  @ForeignKey('api_clients', 'id', { name: 'dispensas_client_id_fkey' })
  client_id: string;

  @Column('char', { length: 11 }) farmacia_cuit: string;
  @Column('varchar', { length: 200 }) farmacia_nombre: string;
  @Column('timestamptz') fecha_dispensa: Date;
  @Column('uuid', { nullable: true }) reserva_id: string | null;

  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('boolean', { default: false }) revertida: boolean;
  @Column('timestamptz', { nullable: true }) revertida_at: Date | null;
  @Column('varchar', { length: 200, nullable: true }) motivo_reversion: string | null;
}
