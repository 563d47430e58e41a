import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/http/access.js';
import { DATE_RANGE_QUERY_ERRORS } from '../../common/validation/date-range-page.query.js';
import { CurrentClient } from '../../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { ApiEnveloped, ApiErrors } from '../../openapi/api-responses.js';
import { ConsultaService } from './consulta.service.js';
import { ListadoEventosDto, ListarEventosQuery } from './dto/eventos.dto.js';
import { ListarRecetasQuery } from './dto/listar-recetas.query.js';
import { ListadoRecetasDto, RecetaDetalleDto } from './dto/receta-responses.dto.js';

@ApiTags('recetas')
@Controller('v1/recetas')
export class ConsultaController {
  constructor(private readonly consulta: ConsultaService) {}

  @Get('listar')
  @RequireScope('recetas:read')
  @ApiOperation({
    summary: "List the caller's prescriptions (scope recetas:read)",
    description:
      "Only the calling client's prescriptions, fecha_creacion within [fecha_desde, fecha_hasta], newest first, ties by id_transaccion. `total` counts all matches. Bad or inverted dates: 400 INVALID_DATE_RANGE.",
  })
  @ApiEnveloped(200, ListadoRecetasDto)
  @ApiErrors({ 400: DATE_RANGE_QUERY_ERRORS })
  list(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: ListarRecetasQuery,
  ): Promise<ListadoRecetasDto> {
    return this.consulta.list(client, query);
  }

  @Get(':id_transaccion/eventos')
  @RequireScope('recetas:read')
  @ApiParam({ name: 'id_transaccion', example: '1042' })
  @ApiOperation({
    summary: "The prescription's event log, oldest first (scope recetas:read)",
    description:
      "Every registration, cancellation, verification by CUIR, reservation and its release, dispensation, reversal, patient access and document download of this prescription, with the acting client (or `paciente`), the result (`ok` or the error code) and the request id; refused actions included. Oldest first, by the event's increasing `id`; paged by `page` and `per_page` (at most 200, default 50), `total` counting them all. The log is only ever appended to, so new events land after the ones already listed and a page once read keeps its events (no `as_of` is needed, unlike listar; an event written at the very moment of a read may show on its page a moment later). The log is append-only and sealed (docs/health-authority.md, section Event log).",
  })
  @ApiEnveloped(200, ListadoEventosDto)
  @ApiErrors({ 404: "NOT_FOUND (also for another client's id)" })
  events(
    @CurrentClient() client: AuthenticatedClient,
    @Param('id_transaccion') id: string,
    @Query() query: ListarEventosQuery,
  ): Promise<ListadoEventosDto> {
    return this.consulta.events(client, id, query);
  }

  @Get(':id_transaccion')
  @RequireScope('recetas:read')
  @ApiParam({ name: 'id_transaccion', example: '1042' })
  @ApiOperation({
    summary: 'Everything registered for one prescription, with its state (scope recetas:read)',
    description:
      "The prescription as registered (patient document, prescriber's licence, location, items with the units dispensed of each), its ministry transaction (`estado` PENDING, COMPLETED or FAILED, `mensaje`, `completed_at` or `failure_reason`; its attempts at GET /v1/transacciones/{id_transaccion}), its own life (`estado_receta`, the validity window `vigencia_desde`–`vigencia_hasta`, `anulacion` once cancelled) and every dispensation, oldest first, reversed ones included. Only the caller's own prescriptions: another client's id answers 404, exactly like a missing one.",
  })
  @ApiEnveloped(200, RecetaDetalleDto)
  @ApiErrors({ 404: "NOT_FOUND (also for another client's id)" })
  detail(
    @CurrentClient() client: AuthenticatedClient,
    @Param('id_transaccion') id: string,
  ): Promise<RecetaDetalleDto> {
    return this.consulta.detail(client, id);
  }
}
