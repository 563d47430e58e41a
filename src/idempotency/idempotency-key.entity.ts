import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An Idempotency-Key of one client, with the answer it got (contract §3; `idempotency_keys`). */
@Entity('idempotency_keys')
@Index('idempotency_keys_expires', ['expiresAt'])
@Check('idempotency_keys_state_check', "state IN ('in_progress', 'completed')")
export class IdempotencyKeyEntity {
  @PrimaryColumn('uuid', { name: 'client_id' }) clientId: string;
  @PrimaryColumn('uuid') key: string;
  /** Canonical hash of method, route and body: the same key with another body is refused. */
  @Column('char', { name: 'request_hash', length: 64 }) requestHash: string;
  @Column('text') state: 'in_progress' | 'completed';
  @Column('integer', { name: 'response_status', nullable: true }) responseStatus: number | null;
  /** The answer's exact bytes. */
  @Column('text', { name: 'response_text', nullable: true }) responseText: string | null;
  /** The answer of keys stored before response_text existed ({data} or {error}). */
  @Column('jsonb', { name: 'response_body', nullable: true }) responseBody: unknown;
  /** While in progress: the holder's lease; a crashed holder's key is free after it. */
  @Column('timestamptz', { name: 'locked_until' }) lockedUntil: Date;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
}
