import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One purge (`auditoria_purgas`): which seals' events it removed, past which date. Append-only
 * by trigger. `xid` (xid8, a type TypeORM does not know; the delete trigger matches it with the
 * purging transaction) is filled by its default; test/schema-drift.e2e-spec.ts allows exactly it.
 */
@Entity('auditoria_purgas')
export class AuditPurgeEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column('timestamptz', { default: () => 'now()' })
  at: Date;

  /** The purge's date: events before its UTC midnight. */
  @Column('date', { name: 'antes_de' })
  antesDe: string;

  /** The seals whose events it removed, as an int8multirange. */
  @Column('int8multirange')
  sellos: string;

  @Column('bigint')
  eventos: string;
}
