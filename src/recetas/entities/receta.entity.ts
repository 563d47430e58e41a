import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ContenidoColumnas, ItemGuardado } from '../contenido/contenido.js';
import type { Sexo } from '../contenido/contenido-patterns.js';
import type { AnulacionEstado, Estado } from '../receta-state.js';

/** An item as stored (contenido.ts: its SPEC 9.2 members only when given). */
export type RecetaItem = ItemGuardado;

/**
 * A registered prescription and its ministry transaction (table `recetas`). Properties are
 * named as the columns and the API name them (snake_case, Spanish), so rows read by SQL and by
 * the entity have one shape and no mapper sits between them and the answers.
 */
@Entity('recetas')
export class RecetaEntity implements ContenidoColumnas {
  /** The regulation's sequential transaction id (bigint, read as a decimal string). */
  @PrimaryColumn('bigint') id_transaccion: string;
  @Column('uuid') client_id: string;
  @Column('char', { length: 41 }) cuir: string;
  @Column('varchar', { length: 8 }) documento_paciente: string;
  @Column('varchar', { length: 20 }) matricula_profesional: string;
  @Column('varchar', { length: 40, nullable: true }) refeps_id: string | null;
  @Column('varchar', { length: 200 }) locacion: string;
  @Column('varchar', { length: 64, nullable: true }) id_de_receta: string | null;
  @Column('varchar', { length: 200, nullable: true }) nombre_medicamento: string | null;
  @Column('timestamptz') fecha_creacion: Date;
  @Column('jsonb') items: RecetaItem[];
  @Column('text') estado: Estado;
  @Column('text') mensaje: string;
  @Column('integer') intentos: number;
  @Column('timestamptz', { nullable: true }) ultimo_intento_at: Date | null;
  @Column('timestamptz', { nullable: true }) proximo_intento_at: Date | null;
  @Column('text', { nullable: true }) ministerio_ref: string | null;
  @Column('text', { nullable: true }) failure_reason: string | null;
  @Column('timestamptz', { nullable: true }) completed_at: Date | null;
  @Column('uuid', { nullable: true }) idempotency_key: string | null;
  /** The validity window (contract §7): calendar dates `YYYY-MM-DD`, both ends included. */
  @Column('date') vigencia_desde: string;
  @Column('date') vigencia_hasta: string;
  /** Set once, by the owner's cancellation. */
  @Column('timestamptz', { nullable: true }) anulada_at: Date | null;
  @Column('varchar', { length: 200, nullable: true }) motivo_anulacion: string | null;
  /** The ministry's notice of the cancellation (null while not cancelled). */
  @Column('text', { nullable: true }) anulacion_estado: AnulacionEstado | null;
  @Column('integer', { default: 0 }) anulacion_intentos: number;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
  /** SPEC 9.2's content (contenido/contenido.ts maps them to and from the API's objects). */
  @Column('varchar', { length: 100, nullable: true }) paciente_nombre: string | null;
  @Column('varchar', { length: 100, nullable: true }) paciente_apellido: string | null;
  @Column('char', { length: 1, nullable: true }) paciente_sexo: Sexo | null;
  /** `YYYY-MM-DD` (a `date`, read as text). */
  @Column('date', { nullable: true }) paciente_fecha_nacimiento: string | null;
  @Column('varchar', { length: 100, nullable: true }) cobertura_financiador: string | null;
  @Column('varchar', { length: 30, nullable: true }) cobertura_numero_afiliado: string | null;
  @Column('char', { length: 6, nullable: true }) cobertura_codigo_rnos: string | null;
  @Column('varchar', { length: 50, nullable: true }) cobertura_plan: string | null;
  @Column('varchar', { length: 8, nullable: true }) diagnostico_codigo: string | null;
  @Column('varchar', { length: 200, nullable: true }) diagnostico_descripcion: string | null;
  /**
   * 16 random bytes drawn at registration, under which content_sha256 commits to the patient's
   * data (receta-content-hash.ts); null for prescriptions registered before it, whose hash is
   * computed as it always was.
   */
  @Column('bytea', { nullable: true }) content_salt: Buffer | null;
}
