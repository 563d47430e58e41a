import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

@Entity('api_clients')
@Index('api_clients_name_active', ['name'], { unique: true, where: 'active' })
@Check('api_clients_name_check', 'length(name) BETWEEN 1 AND 200')
@Check('api_clients_rate_limit_per_minute_check', 'rate_limit_per_minute > 0')
@Check('api_clients_cuir_platform_id_check', "cuir_platform_id ~ '^[0-9]{4}$'")
@Check(
  'api_clients_jurisdicciones_check',
  "array_to_string(jurisdicciones, ',') ~ '^([0-9]{2}(,[0-9]{2})*)?$'",
)
export class ApiClientEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text', { unique: true }) key: string;
  @Column('text', { name: 'secret_hash' }) secretHash: string;
  /** The second valid secret while a rotation is under way. */
  @Column('text', { name: 'next_secret_hash', nullable: true }) nextSecretHash: string | null;
  @Column('text', { array: true, default: () => "'{}'" }) scopes: string[];
  @Column('integer', { name: 'rate_limit_per_minute', default: 600 }) rateLimitPerMinute: number;
  @Column('boolean', { name: 'cuir_uniqueness', default: true }) cuirUniqueness: boolean;
  @Column('boolean', { name: 'cuir_rules', default: false }) cuirRules: boolean;
  /** The prescribing-platform id the ministry assigned this client; null: CUIR_PLATFORM_ID. */
  @Column('char', { name: 'cuir_platform_id', length: 4, nullable: true })
  cuirPlatformId: string | null;
  /**
   * The INDEC jurisdictions whose restricted prescriptions a health authority reads (scope
   * fiscalizacion:read, SPEC 9.3); empty for every other client.
   */
  @Column('text', { array: true, default: () => "'{}'" }) jurisdicciones: string[];
  @Column('boolean', { default: true }) active: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('text', { name: 'webhook_url', nullable: true }) webhookUrl: string | null;
  /** The webhook signing secret, sealed with the server key (it must be used in clear to sign). */
  @Column('text', { name: 'webhook_secret_enc', nullable: true }) webhookSecretEnc: string | null;
}
