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
      'Every registration, cancellation, verification by CUIR, reservation, dispensation, reversal, patient access and document download of this prescription, with the acting client (or `paciente`), the result (`ok` or the error code) and the request id; refused actions included. Paged like listar. The log is append-only and sealed (see the README).',
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
