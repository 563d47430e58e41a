import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One event of the log, for ordinary reads (the per-prescription listing). Written only by
 * SQL (auditoria.sql.ts), since the insert trigger fills `at`, `xid` and `hash` and refuses
 * what the old CHECKs refused (migration 1795728400000). `xid` (xid8, a type TypeORM does not
 * know) is read by SQL only; test/schema-drift.e2e-spec.ts allows exactly that column.
 */
@Entity('auditoria_eventos')
@Index('auditoria_eventos_transaccion', ['idTransaccion', 'id'], {
  where: 'id_transaccion IS NOT NULL',
})
export class AuditEventEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  /** Stamped by the insert trigger, whatever a writer gives. */
  @Column({ type: 'timestamptz', default: () => 'now()', insert: false, update: false })
  at: Date;

  @Column('text')
  tipo: string;

  @Column('char', { length: 41, nullable: true })
  cuir: string | null;

  @Column('bigint', { name: 'id_transaccion', nullable: true })
  idTransaccion: string | null;

  /** The API client's id, or `paciente`. */
  @Column('text')
  actor: string;

  /** `ok`, or the error code the action answered. */
  @Column('text')
  resultado: string;

  /** The id the service minted for the request (null outside one: a job, the CLI). */
  @Column('text', { name: 'request_id', nullable: true })
  requestId: string | null;

  /** The client's own X-Request-Id, as the client sent it (null when it sent none). */
  @Column('text', { name: 'client_request_id', nullable: true })
  clientRequestId: string | null;

  /** The trigger's hash of the event's canonical text: never selected here (sealing reads it by SQL). */
  @Column({ type: 'bytea', select: false, insert: false, update: false })
  hash?: Buffer;
}
