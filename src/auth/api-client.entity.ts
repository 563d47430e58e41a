import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

@Entity('api_clients')
export class ApiClientEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text', { unique: true })
  key: string;

  @Column('text', { name: 'secret_hash' })
  secretHash: string;

  /** The second valid secret while a rotation is under way. */
  @Column('text', { name: 'next_secret_hash', nullable: true })
  nextSecretHash: string | null;

  @Column('text', { array: true })
  scopes: string[];

  @Column('integer', { name: 'rate_limit_per_minute' })
  rateLimitPerMinute: number;

  @Column('boolean', { name: 'cuir_uniqueness' })
  cuirUniqueness: boolean;

  @Column('boolean', { name: 'cuir_rules' })
  cuirRules: boolean;

  /** The prescribing-platform id the ministry assigned this client; null: CUIR_PLATFORM_ID. */
  @Column('char', { name: 'cuir_platform_id', length: 4, nullable: true })
  cuirPlatformId: string | null;

  /**
   * The INDEC jurisdictions whose restricted prescriptions a health authority reads (scope
   * fiscalizacion:read, SPEC 9.3); empty for every other client.
   */
  @Column('text', { array: true, default: () => "'{}'" })
  jurisdicciones: string[];

  @Column('boolean')
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @Column('text', { name: 'webhook_url', nullable: true })
  webhookUrl: string | null;

  /** The webhook signing secret, sealed with the server key (it must be used in clear to sign). */
  @Column('text', { name: 'webhook_secret_enc', nullable: true })
  webhookSecretEnc: string | null;
}
