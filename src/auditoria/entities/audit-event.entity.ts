import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One event of the log, for ordinary reads; written by SQL only (auditoria.sql.ts: the trigger
 * fills `at`, `xid`, `hash`). `xid` (xid8, unknown to TypeORM) is not mapped.
 */
@Entity('auditoria_eventos')
@Index('auditoria_eventos_transaccion', ['idTransaccion', 'id'], {
  where: 'id_transaccion IS NOT NULL',
})
export class AuditEventEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;
  @Column({ type: 'timestamptz', default: () => 'now()', insert: false, update: false })
  at: Date;
  @Column('text')
  tipo: string;
  @Column('char', { length: 41, nullable: true })
  cuir: string | null;
  @Column('bigint', { name: 'id_transaccion', nullable: true })
  idTransaccion: string | null;
  @Column('text')
  actor: string;
  @Column('text')
  resultado: string;
  @Column('text', { name: 'request_id', nullable: true })
  requestId: string | null;
  @Column('text', { name: 'client_request_id', nullable: true })
  clientRequestId: string | null;
  /** Never selected here: sealing reads it by SQL. */
  @Column({ type: 'bytea', select: false, insert: false, update: false })
  hash?: Buffer;
}
