import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
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
/**
 * Partitioned by month of its id (RecetasParticionadas). A CUIR registers once, whoever
 * registers it: its row in recetas_cuir (one per CUIR) is the race-safe 409, and a trigger on
 * every insert writes that row (RecetasCuirPorTrigger, RecetasReglasEnTrigger; TypeORM has no
 * decorator for triggers).
 */
// The listing's indexes: one client's range, newest first (fecha_creacion DESC, id_transaccion
// DESC in the migration; @Index has no direction, and a backward scan serves the same order).
@Index('recetas_client_fecha', ['client_id', 'fecha_creacion', 'id_transaccion'])
@Index('recetas_client_matricula_fecha', [
  'client_id',
  'matricula_profesional',
  'fecha_creacion',
  'id_transaccion',
])
// By patient: the blind index (rows sealed), and the plaintext of rows registered before
// sealing, partial so it empties as `pacientes cifrar` runs (migration 1795728600000).
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
/** The ministry backlog for the operators' metrics. */
@Index('recetas_pending', ['created_at'], { where: "estado = 'PENDING'" })
// No CHECKs: the rules they stated (estado, the cancellation's fields, the validity window, SPEC
// 9.2's content, the sealed document and personal members, the items' types) are tested by the
// triggers on every insert and update, with the CHECKs' own errors, because PostgreSQL rebuilt
// the CHECKs' expressions for every statement (RecetasReglasEnTrigger, where they are listed).
export class RecetaEntity implements ContenidoColumnas {
  /**
   * The regulation's sequential transaction id (bigint, read as a decimal string), drawn from
   * `recetas_id_transaccion_seq`, the sequence the migration created for it.
   */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id_transaccion: string;
  @Column('uuid')
  @ForeignKey('api_clients', 'id', { name: 'recetas_client_id_fkey' })
  client_id: string;

  @Column('char', { length: 41 }) cuir: string;
  /**
   * The patient's DNI. In the table only for rows registered before it was sealed, until
   * `pacientes cifrar` seals them (null after); RecetasRepository fills it with the document
   * in clear on every row it answers, so the rest of the module reads a string.
   */
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
   * SPEC 9.2's content (contenido/contenido.ts maps them to and from the API's objects). The
   * personal members (cifrado/datos-personales.ts: all but the insurer, its RNOS code and plan)
   * are in the table only for rows registered before they were sealed, until `pacientes
   * cifrar` seals them; RecetasRepository fills them in clear from `personales_cifrado` on
   * every row it answers, so the rest of the module reads them as before.
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
   * 16 random bytes drawn at registration, under which content_sha256 commits to the patient's
   * data (receta-content-hash.ts); null for prescriptions registered before it, whose hash is
   * computed as it always was. Stored sealed inside `documento_cifrado` (SPEC 11.2); in this
   * column only for rows registered before, until `pacientes cifrar` seals it there.
   * RecetasRepository fills it in clear on every row it answers.
   */
  @Column('bytea', { nullable: true }) content_salt: Buffer | null;
  /**
   * The personal members sealed as one value (AES-256-GCM of their compact JSON, key id
   * inside: cifrado/datos-personales.ts); null for rows registered before, and for a
   * prescription without any.
   */
  @Column('bytea', { nullable: true }) personales_cifrado: Buffer | null;
}
