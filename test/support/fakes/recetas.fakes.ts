import { contenidoColumnas } from '../../../src/recetas/contenido/contenido.js';
import type { HistoryEntry } from '../../../src/recetas/entities/receta-historial.entity.js';
import type { RecetaEntity } from '../../../src/recetas/entities/receta.entity.js';
import { MENSAJES } from '../../../src/recetas/receta-state.js';
import type { AnulacionEstado } from '../../../src/recetas/receta-state.js';
import type { AttemptOutcome, RecetasRepository } from '../../../src/recetas/recetas.repository.js';

/** Prescriptions and their history in memory, with the repository's guarded state change. */
export class FakeRecetasRepository implements Pick<
  RecetasRepository,
  'findById' | 'findByCuir' | 'applyOutcome' | 'addHistory' | 'applyAnulacionOutcome'
> {
  readonly rows = new Map<string, RecetaEntity>();
  readonly historial = new Map<string, HistoryEntry[]>();

  add(over: Partial<RecetaEntity> = {}): RecetaEntity {
    const id = over.id_transaccion ?? String(this.rows.size + 1);
    const row: RecetaEntity = {
      id_transaccion: id,
      client_id: '00000000-0000-4000-8000-000000000001',
      cuir: '00010001020102000000000000000000000000101',
      documento_paciente: '30111222',
      documento_cifrado: null,
      documento_indice: null,
      matricula_profesional: '123456',
      refeps_id: null,
      locacion: 'Consultorio',
      id_de_receta: null,
      nombre_medicamento: null,
      fecha_creacion: new Date('2026-11-20T10:00:00Z'),
      items: [{ nombre: 'Ibuprofeno 400 mg', cantidad: 1 }],
      estado: 'PENDING',
      mensaje: MENSAJES.PENDING,
      intentos: 0,
      ultimo_intento_at: null,
      proximo_intento_at: null,
      ministerio_ref: null,
      failure_reason: null,
      completed_at: null,
      idempotency_key: null,
      vigencia_desde: '2026-11-20',
      vigencia_hasta: '2026-12-19',
      anulada_at: null,
      motivo_anulacion: null,
      anulacion_estado: null,
      anulacion_intentos: 0,
      created_at: new Date(),
      updated_at: new Date(),
      ...contenidoColumnas({}),
      content_salt: null,
      // As the repository answers rows: opened (the personal members in their columns).
      personales_cifrado: null,
      ...over,
    };
    this.rows.set(id, row);
    return row;
  }

  findById(id: string): Promise<RecetaEntity | null> {
    const row = this.rows.get(id);
    return Promise.resolve(row ? { ...row } : null);
  }

  findByCuir(cuir: string): Promise<RecetaEntity | null> {
    const row = [...this.rows.values()].find((r) => r.cuir === cuir);
    return Promise.resolve(row ? { ...row } : null);
  }

  applyOutcome(id: string, attemptsBefore: number, o: AttemptOutcome): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.estado !== 'PENDING' || row.intentos !== attemptsBefore)
      return Promise.resolve(false);
    Object.assign(row, {
      estado: o.estado,
      mensaje: o.mensaje,
      intentos: o.intento,
      proximo_intento_at: o.proximoIntentoAt ?? null,
      ministerio_ref: o.ministerioRef ?? row.ministerio_ref,
      failure_reason: o.failureReason ?? null,
    });
    return Promise.resolve(true);
  }

  applyAnulacionOutcome(
    id: string,
    attemptsBefore: number,
    o: { estado: AnulacionEstado; intento: number },
  ): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.anulacion_estado !== 'PENDING' || row.anulacion_intentos !== attemptsBefore)
      return Promise.resolve(false);
    Object.assign(row, { anulacion_estado: o.estado, anulacion_intentos: o.intento });
    return Promise.resolve(true);
  }

  addHistory(id: string, entry: HistoryEntry): Promise<void> {
    this.historial.set(id, [...(this.historial.get(id) ?? []), entry]);
    return Promise.resolve();
  }
}
