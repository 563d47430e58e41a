import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The last successful catalogue sync by any instance (`catalogo_sync_state`, one row). */
@Entity('catalogo_sync_state')
export class CatalogoSyncStateEntity {
  @PrimaryColumn('smallint') id: number;
  @Column('timestamptz') synced_at: Date;
  @Column('integer') item_count: number;
}
