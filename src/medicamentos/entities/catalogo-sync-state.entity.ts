import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** The last successful catalogue sync by any instance (`catalogo_sync_state`, one row). */
@Entity('catalogo_sync_state')
@Check('catalogo_sync_state_id_check', 'id = 1')
export class CatalogoSyncStateEntity {
  @PrimaryColumn('smallint') id: number;
  @Column('timestamptz') synced_at: Date;
  @Column('integer') item_count: number;
}
