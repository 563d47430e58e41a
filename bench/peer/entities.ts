/**
 * The peer's own TypeORM entities for the service's tables (the schema is the service's
 * migrations; the peer never synchronises it). Only the columns the peer reads or writes.
 */
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * Whether the schema has the prescription's validity window (contract §7, NOT NULL once its migration
 * ran): main.ts looks before the entities load, so the columns are mapped only where they exist.
 */
const VIGENCIA = process.env.PEER_SCHEMA_VIGENCIA === '1';
const vigencia = {
  type: 'date' as const,
  nullable: true,
  insert: VIGENCIA,
  update: VIGENCIA,
  select: VIGENCIA,
};

export type EstadoTransaccion = 'PENDING' | 'COMPLETED' | 'FAILED';

export interface ItemReceta {
  nombre: string;
  cantidad: number;
  codigo?: string;
}

@Entity('recetas')
export class Receta {
  /** bigint from the table's sequence (read as a string by pg). */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id_transaccion: string;

  @Column('uuid') client_id: string;
  @Column('char', { length: 41 }) cuir: string;
  @Column('varchar', { length: 8 }) documento_paciente: string;
  @Column('varchar', { length: 20 }) matricula_profesional: string;
  @Column('varchar', { length: 40, nullable: true }) refeps_id: string | null;
  @Column('varchar', { length: 200 }) locacion: string;
  @Column('varchar', { length: 64, nullable: true }) id_de_receta: string | null;
  @Column('varchar', { length: 200, nullable: true }) nombre_medicamento: string | null;
  @Column('timestamptz') fecha_creacion: Date;
  @Column('jsonb') items: ItemReceta[];
  @Column('text', { default: 'PENDING' }) estado: EstadoTransaccion;
  @Column('text') mensaje: string;
  @Column('integer', { default: 0 }) intentos: number;
  @Column('uuid', { nullable: true }) idempotency_key: string | null;
  /** YYYY-MM-DD, Argentina time (only when the schema has them). */
  @Column(vigencia) vigencia_desde?: string;
  @Column(vigencia) vigencia_hasta?: string;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at: Date;
}

@Entity('receta_historial')
export class RecetaHistorial {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column('bigint') id_transaccion: string;
  @Column('text') evento: string;
  @Column('text') estado: EstadoTransaccion;
  @Column('integer', { nullable: true }) intento: number | null;
  @Column('text', { nullable: true }) resultado: string | null;
  @Column('text', { nullable: true }) detalle: string | null;
}

@Entity('idempotency_keys')
export class IdempotencyKey {
  @PrimaryColumn('uuid') client_id: string;
  @PrimaryColumn('uuid') key: string;
  @Column('char', { length: 64 }) request_hash: string;
  @Column('text') state: 'in_progress' | 'completed';
  @Column('integer', { nullable: true }) response_status: number | null;
  @Column('text', { nullable: true }) response_text: string | null;
  @Column('timestamptz') locked_until: Date;
  @Column('timestamptz') expires_at: Date;
}

@Entity('api_clients')
export class ApiClient {
  @PrimaryColumn('uuid') id: string;
  @Column('text') key: string;
  @Column('text', { array: true }) scopes: string[];
  @Column('boolean') active: boolean;
  @Column('timestamptz', { nullable: true }) revoked_at: Date | null;
}
