import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * One prescription item of a dispensation; `revertida` is its dispensation's (ON UPDATE CASCADE),
 * so the unique index over the items not reversed holds the single-dispensation rule (Decreto
 * 98/2023, Annex, art. 1).
 */
@Entity('dispensa_items')
@Index('dispensa_items_una_vez', ['id_transaccion', 'item'], {
  unique: true,
  where: 'NOT revertida',
})
@ForeignKey(
  'dispensas',
  ['id_transaccion', 'id_dispensa', 'revertida'],
  ['id_transaccion', 'id', 'revertida'],
  {
    name: 'dispensa_items_id_dispensa_revertida_fkey',
    onUpdate: 'CASCADE',
    onDelete: 'CASCADE',
  },
)
@Check('dispensa_items_item_check', 'item BETWEEN 1 AND 10')
@Check('dispensa_items_cantidad_check', 'cantidad >= 1')
export class DispensaItemEntity {
  @PrimaryColumn('uuid') id_dispensa: string;
  @PrimaryColumn('smallint') item: number;
  @PrimaryColumn('bigint')
  @ForeignKey('recetas', 'id_transaccion', { name: 'dispensa_items_id_transaccion_fkey' })
  id_transaccion: string;

  @Column('integer') cantidad: number;
  @Column('varchar', { length: 32, nullable: true }) codigo: string | null;
  @Column('boolean', { default: false }) sustituido: boolean;
  @Column('boolean', { default: false }) revertida: boolean;
}
