import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One verification by CUIR (`verificaciones_cuir`): who asked, for which prescription. */
@Entity('verificaciones_cuir')
export class VerificacionCuirEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column('uuid') verifier_client_id: string;
  @Column('char', { length: 41 }) cuir: string;
  @Column('bigint', { nullable: true }) id_transaccion: string | null;
  /** The prescription's owner, who may list its verifications; null when none was found. */
  @Column('uuid', { nullable: true }) owner_client_id: string | null;
  @Column('boolean') found: boolean;
  @Column('timestamptz', { default: () => 'now()' }) at: Date;
}
