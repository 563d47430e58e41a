import { Entity, Column, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One verification by CUIR (`verificaciones_cuir`): who asked, for which prescription.
 * Partitioned by month of `at` (VerificacionesParticionadas), which is in its key.
 */
@Entity('verificaciones_cuir')
/** The owner's listing, newest first (DESC in the migration: @Index has no direction). */
@Index('verificaciones_owner_at', ['owner_client_id', 'at', 'id'], {
  where: 'owner_client_id IS NOT NULL',
})
export class VerificacionCuirEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column('uuid')
  @ForeignKey('api_clients', 'id', { name: 'verificaciones_cuir_verifier_client_id_fkey' })
  verifier_client_id: string;

  @Column('char', { length: 41 }) cuir: string;
  @Column('bigint', { nullable: true }) id_transaccion: string | null;
  /** The prescription's owner, who may list its verifications; null when none was found. */
  @Column('uuid', { nullable: true })
  @ForeignKey('api_clients', 'id', { name: 'verificaciones_cuir_owner_client_id_fkey' })
  owner_client_id: string | null;

  @Column('boolean') found: boolean;
  @PrimaryColumn('timestamptz', { default: () => 'now()' }) at: Date;
}
