import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import PgBoss from 'pg-boss';
import {
  Between,
  DataSource,
  LessThanOrEqual,
  QueryFailedError,
  type EntityManager,
  type FindOptionsWhere,
  type Repository,
} from 'typeorm';
import {
  ListadoDto,
  RecetaRegistradaDto,
  RecetaResumenDto,
  type ListarRecetasQuery,
  type RegistrarRecetaDto,
} from './dto.js';
import { IdempotencyKey, Receta, RecetaHistorial } from './entities.js';
import { ApiError } from './http.js';

/** The ministry delivery queue the service works (its jobs are the service's, data and all). */
export const MINISTERIO_QUEUE = 'ministerio-punteros';
const MENSAJE_PENDING = 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud';
export const BOSS = Symbol('PgBoss');

export interface Registered {
  status: number;
  data: unknown;
  replayed: boolean;
}

const isUniqueViolation = (err: unknown) =>
  err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505';

@Injectable()
export class RecetasService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Receta) private readonly recetas: Repository<Receta>,
    @Inject(BOSS) private readonly boss: PgBoss,
  ) {}

  /**
   * One registration in one transaction: the Idempotency-Key (looked up, then inserted in
   * progress; a concurrent holder makes the INSERT fail: 409), the duplicate-CUIR check, the
   * prescription and its history saved, the ministry job sent through pg-boss on the
   * transaction's connection, and the key's answer stored.
   */
  async register(clientId: string, dto: RegistrarRecetaDto, key?: string): Promise<Registered> {
    const requestHash = createHash('sha256').update(JSON.stringify(dto)).digest('hex');
    try {
      return await this.dataSource.transaction(async (manager) => {
        const keys = manager.getRepository(IdempotencyKey);
        if (key) {
          const held = await keys.findOneBy({ client_id: clientId, key });
          if (held && held.expires_at > new Date()) {
            if (held.request_hash !== requestHash)
              throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', 'Key used with another request');
            if (held.state !== 'completed' || !held.response_text)
              throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS', 'Key still in progress');
            return {
              status: held.response_status ?? 201,
              data: JSON.parse(held.response_text) as unknown,
              replayed: true,
            };
          }
          if (held) await keys.delete({ client_id: clientId, key });
          await keys.insert({
            client_id: clientId,
            key,
            request_hash: requestHash,
            state: 'in_progress',
            locked_until: new Date(Date.now() + 60_000),
            expires_at: new Date(Date.now() + 86_400_000),
          });
        }
        const recetas = manager.getRepository(Receta);
        if (await recetas.existsBy({ cuir: dto.cuir }))
          throw new ApiError(409, 'CUIR_ALREADY_REGISTERED', 'This CUIR is already registered');
        const receta = await recetas.save(
          recetas.create({
            client_id: clientId,
            cuir: dto.cuir,
            documento_paciente: dto.documento_paciente,
            matricula_profesional: dto.matricula_profesional,
            refeps_id: dto.refeps_id ?? null,
            locacion: dto.locacion,
            id_de_receta: dto.id_de_receta ?? null,
            nombre_medicamento: dto.nombre_medicamento ?? null,
            fecha_creacion: new Date(dto.fecha_creacion),
            items: dto.items.map((i) => ({ ...i })),
            mensaje: MENSAJE_PENDING,
            idempotency_key: key ?? null,
            ...validity(dto),
          }),
        );
        const historial = manager.getRepository(RecetaHistorial);
        await historial.save(
          historial.create({
            id_transaccion: receta.id_transaccion,
            evento: 'REGISTRADA',
            estado: 'PENDING',
            intento: null,
            resultado: 'accepted',
            detalle: 'registration accepted; ministry notification queued',
          }),
        );
        await this.boss.send(
          MINISTERIO_QUEUE,
          { id_transaccion: receta.id_transaccion, attempt: 1 },
          { db: executor(manager) },
        );
        const answer = new RecetaRegistradaDto({
          id_transaccion: receta.id_transaccion,
          estado: receta.estado,
          mensaje: receta.mensaje,
          cuir: receta.cuir,
          id_de_receta: receta.id_de_receta,
        });
        if (key)
          await keys.update(
            { client_id: clientId, key },
            { state: 'completed', response_status: 201, response_text: JSON.stringify(answer) },
          );
        return { status: 201, data: answer, replayed: false };
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw key && /idempotency/.test(String((err as QueryFailedError).driverError))
          ? new ApiError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS', 'Key still in progress')
          : new ApiError(409, 'CUIR_ALREADY_REGISTERED', 'This CUIR is already registered');
      throw err;
    }
  }

  /** One page, newest first, with `findAndCount` (an exact total) below the `as_of` watermark. */
  async list(clientId: string, q: ListarRecetasQuery): Promise<ListadoDto> {
    const desde = new Date(q.fecha_desde);
    const hasta = new Date(q.fecha_hasta);
    if (desde > hasta)
      throw new ApiError(400, 'INVALID_DATE_RANGE', 'fecha_desde is after fecha_hasta');
    const asOf =
      q.as_of ??
      (
        await this.recetas
          .createQueryBuilder('r')
          .select('max(r.id_transaccion)::text', 'id')
          .getRawOne<{ id: string | null }>()
      )?.id ??
      '0';
    const where: FindOptionsWhere<Receta> = {
      client_id: clientId,
      fecha_creacion: Between(desde, hasta),
      id_transaccion: LessThanOrEqual(asOf),
      ...(q.matricula ? { matricula_profesional: q.matricula } : {}),
      ...(q.documento ? { documento_paciente: q.documento } : {}),
      ...(q.estado ? { estado: q.estado } : {}),
    };
    const [rows, total] = await this.recetas.findAndCount({
      where,
      order: { fecha_creacion: 'DESC', id_transaccion: 'DESC' },
      skip: (q.page - 1) * q.per_page,
      take: q.per_page,
    });
    return new ListadoDto({
      total,
      total_exact: true,
      page: q.page,
      per_page: q.per_page,
      items: rows.map((r) => new RecetaResumenDto(r)),
      as_of: asOf,
    });
  }
}

/**
 * The validity window (contract §7) from the issue date: its date in Argentina time (UTC−03:00), 30
 * days for a medicine (CUIR type 01), 60 for the rest.
 */
function validity(dto: RegistrarRecetaDto): { vigencia_desde: string; vigencia_hasta: string } {
  const day = 86_400_000;
  const desde = new Date(new Date(dto.fecha_creacion).getTime() - 3 * 3_600_000);
  const days = dto.cuir.slice(10, 12) === '01' ? 29 : 59;
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return {
    vigencia_desde: iso(desde),
    vigencia_hasta: iso(new Date(desde.getTime() + days * day)),
  };
}

/** pg-boss's `db` option on the transaction's own connection: the job commits with it. */
function executor(manager: EntityManager) {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('not in a transaction');
  return {
    executeSql: async (text: string, values: unknown[]) => ({
      rows: ((await runner.query(text, values, true)) as { records: unknown[] }).records,
    }),
  };
}
