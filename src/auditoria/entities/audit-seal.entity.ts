import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One seal of the chain (see the migration for what it covers), for ordinary reads. Written
 * only by the sealer's SQL (SEAL_SQL) and chained by its insert trigger. Its xid range
 * (`xid_desde`, `xid_hasta`: xid8, a type TypeORM does not know) is read by SQL only;
 * test/schema-drift.e2e-spec.ts allows exactly those two columns.
 */
@Entity('auditoria_sellos')
@Check('auditoria_sellos_id_check', 'id >= 1')
@Check('auditoria_sellos_eventos_check', 'eventos > 0')
@Check('auditoria_sellos_check', 'xid_hasta > xid_desde')
export class AuditSealEntity {
  /** The seal's number: 1, 2, 3… */
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
