import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scopes } from '../auth/scopes.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { CurrentIdempotencyClaim, IdempotencyClaim } from '../idempotency/idempotency-claim.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiEnveloped, ApiErrors, ApiScope } from '../openapi/api-responses.js';
import { ListarRecetasQuery } from './dto/listar-recetas.query.js';
import {
  ListadoRecetasDto,
  RecetaDetalleDto,
  RegistroRecetaDto,
} from './dto/receta-responses.dto.js';
import { RegistrarRecetaDto } from './dto/registrar-receta.dto.js';
import { RecetasService } from './recetas.service.js';

@ApiTags('recetas')
@Controller('v1/recetas')
export class RecetasController {
  constructor(private readonly recetas: RecetasService) {}

  @Post('registrar')
  @HttpCode(201)
  @Scopes('recetas:write')
  @ApiScope('recetas:write')
  @Idempotent({ settledInWrite: true })
  @ApiOperation({
    summary: 'Register a prescription (scope recetas:write)',
    description:
      "Checks the CUIR's structure and the professional's enablement in REFEPS (licence in the CUIR's jurisdiction), then stores the prescription and queues its ministry notification in one transaction. Answers PENDING; follow the transaction at GET /v1/transacciones/{id_transaccion}.",
  })
  @ApiEnveloped(201, RegistroRecetaDto)
  @ApiErrors({
    409: 'CUIR_ALREADY_REGISTERED, IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: 'PROFESSIONAL_NOT_ENABLED',
    500: 'UPSTREAM_UNAVAILABLE (registry down and nothing cached; nothing stored) or INTERNAL',
  })
  register(
    @CurrentClient() client: AuthenticatedClient,
    @Body() dto: RegistrarRecetaDto,
    @CurrentIdempotencyClaim() claim?: IdempotencyClaim,
  ): Promise<RegistroRecetaDto> {
    return this.recetas.register(client, dto, claim);
  }

  @Get('listar')
  @Scopes('recetas:read')
  @ApiScope('recetas:read')
  @ApiOperation({
    summary: "List the caller's prescriptions (scope recetas:read)",
    description:
      "Only the calling client's prescriptions, fecha_creacion within [fecha_desde, fecha_hasta], newest first, ties by id_transaccion. `total` counts all matches. Bad or inverted dates: 400 INVALID_DATE_RANGE.",
  })
  @ApiEnveloped(200, ListadoRecetasDto)
  @ApiErrors()
  list(
    @CurrentClient() client: AuthenticatedClient,
    @Query() query: ListarRecetasQuery,
  ): Promise<ListadoRecetasDto> {
    return this.recetas.list(client, query);
  }

  @Get(':id_transaccion')
  @Scopes('recetas:read')
  @ApiScope('recetas:read')
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
    return this.recetas.detail(client, id);
  }
}
