import { ArrayMaxSize, IsISO8601, IsIn, IsInt, IsUUID, Max, Min } from 'class-validator';
import { ApiProperty, PickType } from '@nestjs/swagger';
import { AUDIT_TIPOS } from '../../../auditoria/auditoria.public.js';
import { DateRangePageQuery } from '../../../common/validation/date-range-page.query.js';

/** `page` and `per_page`, as listar takes them. */
export class ListarEventosQuery extends PickType(DateRangePageQuery, ['page', 'per_page']) {}

/** One event of the log (contract §8): who acted on the prescription, how, with what result. */
export class EventoDto {
  /**
   * Increasing id of the event in the log
   * @example '5012'
   */
  id: string;
  /** @example '2026-11-22T13:30:00.000Z' */
  @IsISO8601() at: string;
  /**
   * What happened: registration, cancellation, verification by CUIR, reservation and its release, dispensation, reversal, the patient's access, a document download
   * @example 'registro'
   */
  @IsIn(AUDIT_TIPOS)
  tipo: string;
  /** @example '00010001020102000000000000000000001234501' */
  cuir: string | null;
  /** @example '1042' */
  id_transaccion: string | null;
  /**
   * The acting API client's id, or `paciente` for the citizen's own access
   * @example '3f1b1c9e-6a53-4d0e-9f0c-2b7d1a9e8c11'
   */
  actor: string;
  /**
   * `ok`, or the error code the action answered
   * @example 'ok'
   */
  resultado: string;
  /**
   * The id the service gave the request that acted (a UUID it minted, never the client's X-Request-Id); null for the service's own work (jobs, the operator's CLI)
   * @example '8d0e6f9c-3b1a-4c2e-9a57-0f4b2c6d1e83'
   */
  @IsUUID('all')
  request_id: string | null;
  /**
   * The X-Request-Id the acting client sent, as it sent it: that client's own text, not the service's record (null when it sent none)
   * @example 'pos-0042-7781'
   */
  client_request_id: string | null;
}

export class ListadoEventosDto {
  /**
   * All of the prescription's events
   * @example 1
   */
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })
  total: number;
  /**
   * The page answered
   * @example 1
   */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page: number;
  /**
   * Events per page
   * @example 50
   */
  @IsInt()
  @Min(1)
  @Max(200)
  per_page: number;
  /** Oldest first; at most per_page */
  @ArrayMaxSize(200)
  items: EventoDto[];
}
