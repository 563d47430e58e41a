import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { DATE_RANGE_QUERY_ERRORS } from '../common/validation/date-range-page.query.js';
import { CUIR_PATTERN } from '../cuir/cuir.public.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { ListarFiscalizacionQuery } from './dto/fiscalizacion.query.js';
import { ListadoFiscalizacionDto, RecetaFiscalizadaDto } from './dto/receta-fiscalizada.dto.js';
import { FiscalizacionService } from './fiscalizacion.service.js';

const RESTRICTED =
  'Restricted prescriptions are those whose CUIR is type 01 with subtype 03 (bajo receta archivada) or 04 (legalmente restringido); the caller reads those of its own jurisdictions (set with the credentials tool, `--jurisdicciones`), whoever registered them, and never any other prescription. Every call is an event in the log (`tipo` fiscalizacion, the authority as actor).';

@ApiTags('fiscalizacion')
@Controller('v1/fiscalizacion/recetas')
export class FiscalizacionController {
  constructor(private readonly fiscalizacion: FiscalizacionService) {}

  @Get()
  @RequireScope('fiscalizacion:read')
  @ApiOperation({
    summary:
      "The health authority's copy: restricted prescriptions of its jurisdictions (scope fiscalizacion:read)",
    description: `${RESTRICTED} Those registered within [fecha_desde, fecha_hasta], oldest first (ties by id_transaccion), each with the patient, the diagnosis, its items with their dosage, the cancellation and every dispensation, reversed ones included; \`total\` counts every match. Bad or inverted dates: 400 INVALID_DATE_RANGE.`,
  })
  @ApiEnveloped(200, ListadoFiscalizacionDto)
  @ApiErrors({ 400: DATE_RANGE_QUERY_ERRORS })
  listar(
    @CurrentClient() autoridad: AuthenticatedClient,
    @Query() q: ListarFiscalizacionQuery,
  ): Promise<ListadoFiscalizacionDto> {
    return this.fiscalizacion.listar(autoridad, q);
  }

  @Get(':cuir')
  @RequireScope('fiscalizacion:read')
  @ApiParam({
    name: 'cuir',
    description: 'The CUIR: 41 digits',
    schema: { type: 'string', pattern: CUIR_PATTERN, minLength: 41, maxLength: 41 },
  })
  @ApiOperation({
    summary: 'One restricted prescription of its jurisdictions (scope fiscalizacion:read)',
    description: `${RESTRICTED} A prescription that is not restricted, of another jurisdiction, or unknown: the same 404.`,
  })
  @ApiEnveloped(200, RecetaFiscalizadaDto)
  @ApiErrors({
    404: 'NOT_FOUND: no restricted prescription of your jurisdictions has this CUIR (not restricted, another jurisdiction or unknown: one answer)',
  })
  obtener(
    @CurrentClient() autoridad: AuthenticatedClient,
    @Param('cuir') cuir: string,
  ): Promise<RecetaFiscalizadaDto> {
    return this.fiscalizacion.obtener(autoridad, cuir);
  }
}
