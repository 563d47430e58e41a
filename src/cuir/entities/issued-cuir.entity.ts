import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One issuance of a CUIR to a client (`issued_cuirs`, the ledger of contract §3). */
@Entity('issued_cuirs')
/** The uniqueness policy, race-safe: only issuances made under it take part. */
@Index('issued_cuirs_unique_group_item', ['client_id', 'group_id', 'item_id'], {
  unique: true,
  where: 'uniqueness_enforced',
})
@Index('issued_cuirs_cuir', ['cuir'])
export class IssuedCuirEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column('uuid')
  @ForeignKey('api_clients', 'id', { name: 'issued_cuirs_client_id_fkey' })
  client_id: string;

  @Column('char', { length: 41 }) cuir: string;
  @Column('char', { length: 4 }) platform: string;
  @Column('char', { length: 4 }) repository: string;
  @Column('char', { length: 2 }) jurisdiction: string;
  @Column('char', { length: 2 }) prescription_type: string;
  @Column('char', { length: 2 }) medication_type: string;
  @Column('char', { length: 25 }) group_id: string;
  @Column('char', { length: 2 }) item_id: string;
  /** Whether the client's uniqueness policy was on: then the (client, group, item) is unique. */
  @Column('boolean') uniqueness_enforced: boolean;
  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
}
