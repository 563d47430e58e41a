import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One seal of the chain (see the migration for what it covers), for ordinary reads. Written
 * only by the sealer's SQL; its xid range is read by SQL (TypeORM has no xid8 type).
 */
@Entity('auditoria_sellos')
export class AuditSealEntity {
  /** The seal's number: 1, 2, 3… */
  @PrimaryColumn('bigint')
  id: string;

  @Column('timestamptz')
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
