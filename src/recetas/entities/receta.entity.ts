import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
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
 * every insert writes that row (RecetasCuirPorTrigger; TypeORM has no decorator for triggers).
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
@Check('recetas_estado_check', "estado IN ('PENDING', 'COMPLETED', 'FAILED')")
@Check(
  'recetas_anulacion_estado_check',
  "anulacion_estado IN ('PENDING', 'COMPLETED', 'FAILED', 'NOT_REQUIRED')",
)
@Check('recetas_vigencia', 'vigencia_hasta >= vigencia_desde')
@Check(
  'recetas_anulacion',
  `(anulada_at IS NULL) = (motivo_anulacion IS NULL)
   AND (anulada_at IS NULL) = (anulacion_estado IS NULL)`,
)
// SPEC 9.2's content rules, added NOT VALID by their migration (1795728400000), where they
// are explained; TypeORM cannot say NOT VALID, and never creates them.
@Check(
  'recetas_paciente',
  `paciente_sexo IN ('F', 'M', 'X')
   AND paciente_fecha_nacimiento >= DATE '1900-01-01'
   AND (paciente_nombre IS NULL) = (paciente_apellido IS NULL)
   AND (paciente_nombre IS NULL) = (paciente_sexo IS NULL)
   AND (paciente_nombre IS NULL) = (paciente_fecha_nacimiento IS NULL)`,
)
// Replaced NOT VALID by 1795728700000: the member number in clear or in the seal.
@Check(
  'recetas_cobertura',
  `(cobertura_financiador IS NOT NULL OR cobertura_numero_afiliado IS NULL)
   AND (cobertura_financiador IS NULL OR cobertura_numero_afiliado IS NOT NULL
        OR personales_cifrado IS NOT NULL)
   AND (cobertura_financiador IS NOT NULL
        OR (cobertura_codigo_rnos IS NULL AND cobertura_plan IS NULL))`,
)
@Check('recetas_diagnostico', 'diagnostico_codigo IS NOT NULL OR diagnostico_descripcion IS NULL')
// Added NOT VALID by 1795728700000: a row's personal members in clear (before) or sealed.
@Check(
  'recetas_personales',
  `personales_cifrado IS NULL
   OR (paciente_nombre IS NULL AND paciente_apellido IS NULL AND paciente_sexo IS NULL
       AND paciente_fecha_nacimiento IS NULL AND cobertura_numero_afiliado IS NULL
       AND diagnostico_codigo IS NULL AND diagnostico_descripcion IS NULL)`,
)
// Added NOT VALID by its migration (1795728600000): rows before it all hold their plaintext.
@Check(
  'recetas_documento',
  `(documento_cifrado IS NULL) = (documento_indice IS NULL)
   AND (documento_paciente IS NOT NULL OR documento_cifrado IS NOT NULL)`,
)
@Check('recetas_content_salt', 'octet_length(content_salt) = 16')
@Check(
  'recetas_items_tipos',
  `jsonb_typeof(items) = 'array'
   AND NOT jsonb_path_exists(items, '$[*] ? (
         @.nombre.type() != "string" || @.cantidad.type() != "number"
      || @.codigo.type() != "string" || @.dci.type() != "string"
      || @.concentracion.type() != "string" || @.forma_farmaceutica.type() != "string"
      || @.presentacion.type() != "string" || @.posologia.type() != "string"
      || @.sustituible.type() != "boolean")')`,
)
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
   * computed as it always was.
   */
  @Column('bytea', { nullable: true }) content_salt: Buffer | null;
  /**
   * The personal members sealed as one value (AES-256-GCM of their compact JSON, key id
   * inside: cifrado/datos-personales.ts); null for rows registered before, and for a
   * prescription without any.
   */
  @Column('bytea', { nullable: true }) personales_cifrado: Buffer | null;
}
