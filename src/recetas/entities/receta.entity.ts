import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ContenidoColumnas, ItemGuardado } from '../contenido/contenido.js';
import type { Sexo } from '../contenido/contenido-patterns.js';
import type { AnulacionEstado, Estado } from '../receta-state.js';

/** An item as stored (contenido.ts: its SPEC 9.2 members only when given). */
export type RecetaItem = ItemGuardado;

/**
 * A registered prescription and its ministry transaction (`recetas`), partitioned by month of
 * its id; named as the columns and the API name them, so SQL rows and entities share one shape.
 * Its triggers (no decorator exists for them) write its `recetas_cuir` row and test its rules.
 */
@Entity('recetas')
// The listing's indexes (DESC in the migration: @Index has no direction; a backward scan serves).
@Index('recetas_client_fecha', ['client_id', 'fecha_creacion', 'id_transaccion'])
@Index('recetas_client_matricula_fecha', [
  'client_id',
  'matricula_profesional',
  'fecha_creacion',
  'id_transaccion',
])
// By patient: the blind index, and (partial) the plaintext of rows not sealed yet.
@Index('recetas_client_documento_fecha', [
  'client_id',
  'documento_indice',
  'fecha_creacion',
  'id_transaccion',
])
@Index(
  'recetas_client_documento_claro_fecha',
  ['client_id', 'documento_paciente', 'fecha_creacion', 'id_transaccion'],
  { where: 'documento_paciente IS NOT NULL' },
)
@Index('recetas_client_estado_fecha', ['client_id', 'estado', 'fecha_creacion', 'id_transaccion'])
@Index('recetas_pending', ['created_at'], { where: "estado = 'PENDING'" })
// No CHECKs: the triggers test their rules, cheaper per statement (RecetasReglasEnTrigger).
export class RecetaEntity implements ContenidoColumnas {
  /** The regulation's sequential transaction id (bigint, as a decimal string). */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id_transaccion: string;
  @Column('uuid')
  @ForeignKey('api_clients', 'id', { name: 'recetas_client_id_fkey' })
  client_id: string;

  @Column('char', { length: 41 }) cuir: string;
  /** The DNI: in the table only for rows not sealed yet; RecetasRepository fills it in clear. */
  @Column('varchar', { length: 8, nullable: true }) documento_paciente: string;
  /** The DNI sealed (AES-256-GCM, key id inside: cifrado/datos-paciente.ts). */
  @Column('bytea', { nullable: true }) documento_cifrado: Buffer | null;
  /** Its blind index: HMAC-SHA256 under the pepper-derived index key, 16 bytes. */
  @Column('bytea', { nullable: true }) documento_indice: Buffer | null;
  @Column('varchar', { length: 20 }) matricula_profesional: string;
  @Column('varchar', { length: 40, nullable: true }) refeps_id: string | null;
  @Column('varchar', { length: 200 }) locacion: string;
  @Column('varchar', { length: 64, nullable: true }) id_de_receta: string | null;
  @Column('varchar', { length: 200, nullable: true }) nombre_medicamento: string | null;
  @Column('timestamptz') fecha_creacion: Date;
  @Column('jsonb') items: RecetaItem[];
  @Column('text', { default: 'PENDING' }) estado: Estado;
  @Column('text') mensaje: string;
  @Column('integer', { default: 0 }) intentos: number;
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
  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('timestamptz', { default: () => 'now()' }) updated_at: Date;
  /**
   * SPEC 9.2's content (contenido/contenido.ts). The personal members are in the table only for
   * rows not sealed yet; RecetasRepository fills them in clear from `personales_cifrado`.
   */
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
   * The content hash's salt (receta-content-hash.ts; null before it existed), sealed inside
   * `documento_cifrado`: here only for rows not sealed yet. RecetasRepository fills it in clear.
   */
  @Column('bytea', { nullable: true }) content_salt: Buffer | null;
  /** The personal members sealed as one value (cifrado/datos-personales.ts); null: none, or not sealed yet. */
  @Column('bytea', { nullable: true }) personales_cifrado: Buffer | null;
}
