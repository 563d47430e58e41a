import { Body, Controller, Delete, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { Idempotent } from '../idempotency/idempotency.public.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { ReservaDto, ReservarDto } from './dto/reservar.dto.js';
import {
  CountsCuirMisses,
  MISSES_404,
  MISSES_429,
  MISSES_TEXT,
} from '../verificacion/verificacion.public.js';
import { ReservasService } from './reservas.service.js';

@ApiTags('dispensas')
@Controller('v1/dispensas/reservas')
export class ReservasController {
  constructor(private readonly reservas: ReservasService) {}

  @Post()
  @HttpCode(201)
  @RequireScope('dispensas:write')
  @CountsCuirMisses('reserva')
  @Idempotent()
  @ApiOperation({
    summary: 'Reserve a prescription while checking stock (scope dispensas:write)',
    description:
      "Holds the prescription for DISPENSA_RESERVA_MINUTOS (default 10): nobody else may reserve or dispense it, nor may its prescriber cancel it, until it lapses (it frees itself), is released, or is consumed by your dispensation. 201: a new reservation; 200: your live one, extended from now but never past its creation + DISPENSA_RESERVA_MAX_MINUTOS (default 30; at the cap it is answered unchanged). Another dispenser's live reservation → 409 RECETA_RESERVADA (`details` carries its vence_at, never the holder); ANULADA → 409 RECETA_ANULADA; nothing left to dispense → 409 RECETA_DISPENSADA; your own reservation of it lapsed or was released, or a dispensation of it by you was reversed, less than DISPENSA_RESERVA_MINUTOS ago → 409 RESERVA_REITERADA (another dispenser gets its turn; `details` carries reservable_desde; other clients are not affected, you may still dispense without a reservation, and a reservation your dispensation consumed does not count while that dispensation stands); today outside the validity window → 422 RECETA_NO_VIGENTE; unknown CUIR → 404 (counted: " +
      MISSES_TEXT +
      '). Written to the event log (tipo `reserva`), refusals too.',
  })
  @ApiEnveloped(201, ReservaDto, 'A new reservation')
  @ApiEnveloped(200, ReservaDto, 'Your live reservation, extended (up to its cap)')
  @ApiErrors({
    404: `NOT_FOUND: no prescription with this CUIR ${MISSES_404}`,
    409: 'RECETA_RESERVADA, RECETA_ANULADA, RECETA_DISPENSADA, RESERVA_REITERADA (your reservation of it lapsed or was released, or your dispensation of it was reversed, less than DISPENSA_RESERVA_MINUTOS ago: another dispenser gets its turn), IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: 'RECETA_NO_VIGENTE',
    429: MISSES_429,
  })
  async reservar(
    @CurrentClient() client: AuthenticatedClient,
    @Body() dto: ReservarDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReservaDto> {
    const { creada, reserva } = await this.reservas.reservar(client, dto.cuir);
    if (!creada) res.status(200);
    return reserva;
  }

  @Delete(':reserva_id')
  @HttpCode(204)
  @RequireScope('dispensas:write')
  @CountsCuirMisses('reserva_liberada')
  @ApiParam({ name: 'reserva_id', format: 'uuid' })
  @ApiOperation({
    summary: 'Release your reservation (scope dispensas:write)',
    description:
      "204, also when it had lapsed, been released or been consumed already. Another client's reservation answers 404, exactly like a missing one. Takes no request body: one (even `{}`) is refused with 400 VALIDATION_FAILED, field `(body)`, and nothing is released. Written to the event log (tipo `reserva_liberada`).",
  })
  @ApiResponse({ status: 204, description: 'Released' })
  @ApiErrors({
    400: 'VALIDATION_FAILED: a request body was sent (field `(body)`)',
    404: `NOT_FOUND (also for another client's reservation) ${MISSES_404}`,
    429: MISSES_429,
  })
  async liberar(
    @CurrentClient() client: AuthenticatedClient,
    @Param('reserva_id') id: string,
  ): Promise<void> {
    await this.reservas.liberar(client, id);
  }
}
