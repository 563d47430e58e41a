import { ApiProperty, PickType } from '@nestjs/swagger';
import { AUDIT_TIPOS } from '../../../auditoria/auditoria.public.js';
import { DateRangePageQuery } from '../../../common/validation/date-range-page.query.js';

/** `page` and `per_page`, as listar takes them. */
export class ListarEventosQuery extends PickType(DateRangePageQuery, ['page', 'per_page']) {}

/** One event of the log (contract §8): who acted on the prescription, how, with what result. */
export class EventoDto {
  @ApiProperty({ description: 'Increasing id of the event in the log', example: '5012' })
  id: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T13:30:00.000Z' }) at: string;
  @ApiProperty({
    enum: AUDIT_TIPOS,
    description:
      "What happened: registration, cancellation, verification by CUIR, reservation and its release, dispensation, reversal, the patient's access, a document download",
    example: 'registro',
  })
  tipo: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '00010001020102000000000000000000001234501',
  })
  cuir: string | null;
  @ApiProperty({ nullable: true, type: String, example: '1042' }) id_transaccion: string | null;
  @ApiProperty({
    description: "The acting API client's id, or `paciente` for the citizen's own access",
    example: '3f1b1c9e-6a53-4d0e-9f0c-2b7d1a9e8c11',
  })
  actor: string;
  @ApiProperty({ description: '`ok`, or the error code the action answered', example: 'ok' })
  resultado: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description:
      "The id the service gave the request that acted (a UUID it minted, never the client's X-Request-Id); null for the service's own work (jobs, the operator's CLI)",
    example: '8d0e6f9c-3b1a-4c2e-9a57-0f4b2c6d1e83',
  })
  request_id: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "The X-Request-Id the acting client sent, as it sent it: that client's own text, not the service's record (null when it sent none)",
    example: 'pos-0042-7781',
  })
  client_request_id: string | null;
}

export class ListadoEventosDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: "All of the prescription's events",
    example: 1,
  })
  total: number;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 1_000_000,
    description: 'The page answered',
    example: 1,
  })
  page: number;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 200,
    description: 'Events per page',
    example: 50,
  })
  per_page: number;
  @ApiProperty({ type: [EventoDto], maxItems: 200, description: 'Oldest first; at most per_page' })
  items: EventoDto[];
}
