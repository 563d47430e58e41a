import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One purge: which seals' events it removed, before which date. `xid` (xid8) is not mapped. */
@Entity('auditoria_purgas')
export class AuditPurgeEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;
  @Column('timestamptz', { default: () => 'now()' })
  at: Date;
  @Column('date', { name: 'antes_de' })
  antesDe: string;
  /** The seals whose events it removed, as an int8multirange. */
  @Column('int8multirange')
  sellos: string;
  @Column('bigint')
  eventos: string;
}
