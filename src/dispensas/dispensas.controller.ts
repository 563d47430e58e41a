import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { Idempotent } from '../idempotency/idempotency.public.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { DispensasService } from './dispensas.service.js';
import {
  CountsCuirMisses,
  MISSES_404,
  MISSES_429,
  MISSES_TEXT,
} from '../verificacion/verificacion.public.js';
import { DispensaDto } from './dto/dispensa.dto.js';
import { DispensarDto } from './dto/dispensar.dto.js';
import { RevertirDispensaDto } from './dto/revertir.dto.js';

@ApiTags('dispensas')
@Controller('v1/dispensas')
export class DispensasController {
  constructor(private readonly dispensas: DispensasService) {}

  @Post()
  @HttpCode(201)
  @RequireScope('dispensas:write')
  @CountsCuirMisses('dispensa')
  @Idempotent()
  @ApiOperation({
    summary: 'Record a dispensation (scope dispensas:write)',
    description:
      'Each prescription item is dispensed at most once; fewer units than prescribed close the item. Rules, checked together, all or nothing (one bad item: nothing is recorded), in this order: unknown CUIR → 404 (counted: ' +
      MISSES_TEXT +
      "); ANULADA → 409 RECETA_ANULADA; another dispenser's live reservation → 409 RECETA_RESERVADA (`details` carries its vence_at, never the holder); fecha_dispensa more than 5 minutes ahead or before the prescription's issue → 400; outside the validity window → 422 RECETA_NO_VIGENTE (fecha_dispensa's date in Argentina time must fall in it, and a prescription past its window takes none); an `item` beyond the prescription's → 400; more units than prescribed → 422 CANTIDAD_EXCEDIDA; an item already dispensed → 409 ITEM_YA_DISPENSADO (`details` names each). Concurrent dispensations of one item, from any clients: exactly one succeeds (the database holds the rule with a unique index). Consumes the caller's live reservation on the prescription. Webhook `receta.dispensada` to the prescription's owner; written to the event log (tipo `dispensa`), refusals too.",
  })
  @ApiEnveloped(201, DispensaDto)
  @ApiErrors({
    404: `NOT_FOUND: no prescription with this CUIR ${MISSES_404}`,
    409: 'RECETA_ANULADA, RECETA_RESERVADA, ITEM_YA_DISPENSADO, IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: {
      description:
        'RECETA_NO_VIGENTE, CANTIDAD_EXCEDIDA, SUSTITUCION_NO_PERMITIDA (sustituido: true on an item the prescriber marked sustituible: false), SUSTITUCION_NO_DECLARADA (a codigo other than the prescribed one without sustituido: true) or MEDICAMENTO_DESCONOCIDO (a codigo not in the catalogue); `details` names each item at fault and nothing is dispensed',
      examples: {
        sustitucionNoPermitida: {
          code: 'SUSTITUCION_NO_PERMITIDA',
          message: 'The prescriber forbade substituting an item; nothing was dispensed',
          details: [
            {
              field: 'items[0].sustituido',
              issue: 'item 1 may not be substituted (the prescriber marked it sustituible: false)',
            },
          ],
        },
        sustitucionNoDeclarada: {
          code: 'SUSTITUCION_NO_DECLARADA',
          message:
            'A code other than the prescribed one was dispensed without declaring a substitution; nothing was dispensed',
          details: [
            {
              field: 'items[0].codigo',
              issue:
                'item 1 was prescribed as 1336421: dispensing 2105825 is a substitution (send sustituido: true)',
            },
          ],
        },
        medicamentoDesconocido: {
          code: 'MEDICAMENTO_DESCONOCIDO',
          message:
            'Not in the medication catalogue: items[0].codigo (see GET /v1/medicamentos/buscar); nothing was written',
          details: [
            {
              field: 'items[0].codigo',
              issue: '9999999 is not a code of the medication catalogue',
            },
          ],
        },
        cantidadExcedida: {
          code: 'CANTIDAD_EXCEDIDA',
          message: 'More units than prescribed for an item; nothing was dispensed',
          details: [{ field: 'items[0].cantidad', issue: 'item 1 was prescribed 2 units at most' }],
        },
      },
    },
    429: MISSES_429,
  })
  create(
    @CurrentClient() client: AuthenticatedClient,
    @Body() dto: DispensarDto,
  ): Promise<DispensaDto> {
    return this.dispensas.dispensar(client, dto);
  }

  @Get(':id_dispensa')
  @RequireScope('dispensas:write')
  @ApiParam({ name: 'id_dispensa', format: 'uuid' })
  @ApiOperation({
    summary: 'One of your dispensations (scope dispensas:write)',
    description:
      "`estado_receta` is the prescription's state now. Another client's dispensation answers 404, exactly like a missing one.",
  })
  @ApiEnveloped(200, DispensaDto)
  @ApiErrors({ 404: "NOT_FOUND (also for another client's dispensation)" })
  get(
    @CurrentClient() client: AuthenticatedClient,
    @Param('id_dispensa') id: string,
  ): Promise<DispensaDto> {
    return this.dispensas.obtener(client, id);
  }

  @Post(':id_dispensa/revertir')
  @HttpCode(200)
  @RequireScope('dispensas:write')
  @CountsCuirMisses('reversion')
  @Idempotent()
  @ApiParam({ name: 'id_dispensa', format: 'uuid' })
  @ApiOperation({
    summary: 'Reverse one of your dispensations (scope dispensas:write)',
    description:
      "By the dispensing client, within DISPENSA_REVERSION_HORAS (default 24) of when the dispensation was recorded: its items become dispensable again. Repeated: 200 with the same dispensation, nothing recorded twice. Later: 409 REVERSION_VENCIDA. Webhook `receta.dispensa_revertida` to the prescription's owner; written to the event log (tipo `reversion`), refusals too.",
  })
  @ApiEnveloped(200, DispensaDto)
  @ApiErrors({
    404: `NOT_FOUND (also for another client's dispensation) ${MISSES_404}`,
    409: 'REVERSION_VENCIDA, IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: MISSES_429,
  })
  revertir(
    @CurrentClient() client: AuthenticatedClient,
    @Param('id_dispensa') id: string,
    @Body() dto: RevertirDispensaDto,
  ): Promise<DispensaDto> {
    return this.dispensas.revertir(client, id, dto.motivo);
  }
}
