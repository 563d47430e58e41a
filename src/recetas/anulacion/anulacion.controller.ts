import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/http/access.js';
import { CurrentClient } from '../../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { Idempotent } from '../../idempotency/idempotency.public.js';
import { ApiEnveloped, ApiErrors } from '../../openapi/api-responses.js';
import { RecetaDetalleDto } from '../consulta/dto/receta-responses.dto.js';
import { AnulacionService } from './anulacion.service.js';
import { AnularRecetaDto } from './dto/anular-receta.dto.js';

@ApiTags('recetas')
@Controller('v1/recetas')
export class AnulacionController {
  constructor(private readonly anulacion: AnulacionService) {}

  @Post(':id_transaccion/anular')
  @HttpCode(200)
  @RequireScope('recetas:write')
  @Idempotent()
  @ApiParam({ name: 'id_transaccion', example: '1042' })
  @ApiOperation({
    summary: 'Cancel one of your prescriptions (scope recetas:write, owner only)',
    description:
      "VIGENTE or VENCIDA → ANULADA; answers the prescription's detail. Already ANULADA: 200 with the same detail, nothing recorded again — also when this request's `motivo` differs: the first cancellation's `motivo` (and `at`) is kept and answered, and the new one is not stored, not sent to the ministry and not in the event log (with the same Idempotency-Key and another `motivo`: 409 IDEMPOTENCY_KEY_REUSED). The ministry is told on the pointer's own durable queue, after the pointer's delivery when that is still pending (nothing to tell when the pointer was never accepted); the tracking `historial` shows the cancellation (ANULADA) and each notice attempt (ANULACION_INTENTO, ANULACION_INFORMADA / ANULACION_FALLIDA / ANULACION_NO_INFORMADA). Webhook `receta.anulada` to the owner. Written to the event log (tipo `anulacion`), refusals too.",
  })
  @ApiEnveloped(200, RecetaDetalleDto)
  @ApiErrors({
    404: "NOT_FOUND: unknown id, or another client's prescription",
    409: 'RECETA_DISPENSADA (something was dispensed and not reversed), RECETA_RESERVADA (a dispenser holds a live reservation), IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
  })
  anular(
    @CurrentClient() client: AuthenticatedClient,
    @Param('id_transaccion') id: string,
    @Body() dto: AnularRecetaDto,
  ): Promise<RecetaDetalleDto> {
    return this.anulacion.anular(client, id, dto.motivo);
  }
}
