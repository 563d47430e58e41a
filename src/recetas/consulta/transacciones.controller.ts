import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/http/access.js';
import { CurrentClient } from '../../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { ApiEnveloped, ApiErrors } from '../../openapi/api-responses.js';
import { TransaccionDto } from './dto/receta-responses.dto.js';
import { ConsultaService } from './consulta.service.js';

@ApiTags('recetas')
@Controller('v1/transacciones')
export class TransaccionesController {
  constructor(private readonly consulta: ConsultaService) {}

  @Get(':id_transaccion')
  @RequireScope('recetas:read')
  @ApiParam({ name: 'id_transaccion', example: '1042' })
  @ApiOperation({
    summary: 'Track a transaction: state, delivery attempts and history (scope recetas:read)',
    description:
      'PENDING → COMPLETED (ministry acknowledged; ministerio_ref set) or FAILED (rejected, or retries exhausted). `historial` lists every state change and delivery attempt.',
  })
  @ApiEnveloped(200, TransaccionDto)
  @ApiErrors({ 404: "NOT_FOUND (also for another client's id)" })
  track(
    @CurrentClient() client: AuthenticatedClient,
    @Param('id_transaccion') id: string,
  ): Promise<TransaccionDto> {
    return this.consulta.tracking(client, id);
  }
}
