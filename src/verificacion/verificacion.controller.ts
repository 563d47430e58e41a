import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CUIR_PATTERN } from '../cuir/cuir.public.js';
import { RequireScope } from '../common/http/access.js';
import { DATE_RANGE_QUERY_ERRORS } from '../common/validation/date-range-page.query.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import {
  ListadoVerificacionesDto,
  ListarVerificacionesQuery,
  VerificacionRecetaDto,
} from './dto/verificacion.dto.js';
import { MISSES_404, MISSES_429, MISSES_TEXT } from './verificacion.public.js';
import { VerificacionService } from './verificacion.service.js';

@ApiTags('verificacion')
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
      "Answers for a prescription of any client (that is its purpose) with a minimal projection: state, date, the prescriber's licence, items and a SHA-256 of the registered content; never the patient's document. Every call is audited and visible to the prescription's owner at GET /v1/verificaciones. Unknown CUIRs (404) are counted per client (a CUIR cannot be walked): " +
      MISSES_TEXT +
      '; other clients are not affected, and the refusal is in the event log (resultado RATE_LIMITED).',
  })
  @ApiEnveloped(200, VerificacionRecetaDto)
  @ApiErrors({
    404: `NOT_FOUND: no prescription with this CUIR ${MISSES_404}`,
    429: MISSES_429,
  })
  verificar(
    @CurrentClient() client: AuthenticatedClient,
    @Param('cuir') cuir: string,
  ): Promise<VerificacionRecetaDto> {
    return this.verificacion.verificar(client, cuir);
  }

  @Get('verificaciones')
  @RequireScope('recetas:read')
  @ApiOperation({
    summary: "Who verified the caller's prescriptions, and when (scope recetas:read)",
    description:
      "Every verification by CUIR (GET /v1/recetas/verificar/{cuir}) of the calling client's prescriptions whose time `at` is within [fecha_desde, fecha_hasta], optionally of one CUIR: newest first, ties by the verification's own id, `total` counting all matches. Pages are offsets into that order: a verification recorded while a client pages shifts later pages by one (narrow fecha_hasta to a fixed instant to page a stable set). Bad or inverted dates: 400 INVALID_DATE_RANGE.",
  })
  @ApiEnveloped(200, ListadoVerificacionesDto)
  @ApiErrors({ 400: DATE_RANGE_QUERY_ERRORS })
  audit(
    @CurrentClient() client: AuthenticatedClient,
    @Query() q: ListarVerificacionesQuery,
  ): Promise<ListadoVerificacionesDto> {
    return this.verificacion.auditFor(client, q);
  }
}
