import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One event of the log, for ordinary reads (the per-prescription listing). Written only by
 * SQL (AuditoriaRepository), since the insert trigger fills `at`, `xid` and `hash`; `xid`
 * and `hash` belong to sealing and are read by SQL too (TypeORM has no xid8 type).
 */
@Entity('auditoria_eventos')
export class AuditEventEntity {
  @PrimaryColumn('bigint')
  id: string;

  @Column('timestamptz')
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
}
