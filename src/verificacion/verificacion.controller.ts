import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CUIR_PATTERN } from '../cuir/cuir-patterns.js';
import { RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import {
  ListadoVerificacionesDto,
  ListarVerificacionesQuery,
  VerificacionRecetaDto,
} from './dto/verificacion.dto.js';
import { VerificacionService } from './verificacion.service.js';

@ApiTags('verificación')
@Controller('v1')
export class VerificacionController {
  constructor(private readonly verificacion: VerificacionService) {}

  @Get('recetas/verificar/:cuir')
  @RequireScope('recetas:verify')
  @ApiParam({
    name: 'cuir',
    description: 'A structurally valid CUIR: 41 digits',
    schema: { type: 'string', pattern: CUIR_PATTERN, minLength: 41, maxLength: 41 },
  })
  @ApiOperation({
    summary: 'Verify a prescription by its CUIR (scope recetas:verify, for dispensers)',
    description:
      "Answers for a prescription of any client (that is its purpose) with a minimal projection: state, date, the prescriber's licence, items and a SHA-256 of the registered content; never the patient's document. Every call is audited and visible to the prescription's owner at GET /v1/verificaciones.",
  })
  @ApiEnveloped(200, VerificacionRecetaDto)
  @ApiErrors({ 404: 'NOT_FOUND: no prescription with this CUIR' })
  verify(
    @CurrentClient() client: AuthenticatedClient,
    @Param('cuir') cuir: string,
  ): Promise<VerificacionRecetaDto> {
    return this.verificacion.verify(client, cuir);
  }

  @Get('verificaciones')
  @RequireScope('recetas:read')
  @ApiOperation({
    summary: "Who verified the caller's prescriptions, and when (scope recetas:read)",
  })
  @ApiEnveloped(200, ListadoVerificacionesDto)
  @ApiErrors()
  audit(
    @CurrentClient() client: AuthenticatedClient,
    @Query() q: ListarVerificacionesQuery,
  ): Promise<ListadoVerificacionesDto> {
    return this.verificacion.auditFor(client, q);
  }
}
