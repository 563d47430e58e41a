import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** The client a CUIR was first issued to (`cuir_owners`): a CUIR is only ever its owner's. */
@Entity('cuir_owners')
export class CuirOwnerEntity {
  @PrimaryColumn('char', { length: 41 }) cuir: string;
  @Column('uuid')
  @ForeignKey('api_clients', 'id', { name: 'cuir_owners_client_id_fkey' })
  client_id: string;

  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
}
