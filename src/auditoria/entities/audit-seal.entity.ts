import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One seal of the chain, written by SEAL_SQL only. Its xid range (`xid_desde`, `xid_hasta`:
 * xid8, unknown to TypeORM) is not mapped.
 */
@Entity('auditoria_sellos')
@Check('auditoria_sellos_id_check', 'id >= 1')
@Check('auditoria_sellos_eventos_check', 'eventos > 0')
@Check('auditoria_sellos_check', 'xid_hasta > xid_desde')
export class AuditSealEntity {
  @PrimaryColumn('bigint')
  id: string;
  @Column('timestamptz', { default: () => 'now()' })
  at: Date;
  @Column('bigint')
  eventos: string;
  /** The ids of the events it covers, as an int8multirange (`{[1,40),[41,97)}`). */
  @Column('int8multirange')
  ids: string;
  /** The newest of its events' times: a purge takes only seals entirely older than its date. */
  @Column('timestamptz', { name: 'ultimo_at' })
  ultimoAt: Date;
  @Column('bytea')
  digest: Buffer;
  @Column('bytea', { name: 'hash_anterior' })
  hashAnterior: Buffer;
  @Column('bytea')
  hash: Buffer;
}
