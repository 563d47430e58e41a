import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { Estado } from '../receta-state.js';

/** One state change or delivery attempt of a transaction, partitioned with its prescription. */
@Entity('receta_historial')
export class RecetaHistorialEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  /** No foreign key (it cost a tenth of the registration's throughput): written beside it or under its lock. */
  @PrimaryColumn('bigint') id_transaccion: string;

  /** clock_timestamp() at insert: entries of one transaction keep their real order. */
  @Column('timestamptz', { default: () => 'clock_timestamp()' }) at: Date;
  @Column('text') evento: string;
  @Column('text') estado: Estado;
  @Column('integer', { nullable: true }) intento: number | null;
  @Column('text', { nullable: true }) resultado: string | null;
  @Column('text', { nullable: true }) detalle: string | null;
}

/** A history entry as the services write it (the id and time come from the database). */
export type HistoryEntry = Omit<RecetaHistorialEntity, 'id' | 'id_transaccion' | 'at'>;
