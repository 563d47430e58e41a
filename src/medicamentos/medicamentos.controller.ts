import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { BuscarMedicamentosQueryDto, MedicamentosPageDto } from './dto/buscar-medicamentos.dto.js';
import { type MedicamentosPage, MedicamentosService } from './medicamentos.service.js';

@ApiTags('medicamentos')
@Controller('v1/medicamentos')
export class MedicamentosController {
  constructor(private readonly medicamentos: MedicamentosService) {}

  @Get('buscar')
  @RequireScope('medicamentos:read')
  @ApiOperation({
    summary: 'Search the medication catalogue (scope medicamentos:read)',
    description:
      'Searches a local mirror of the official catalogue, refreshed by a scheduled sync: `q` over commercial name and active ingredient (case- and accent-insensitive, typo tolerant, best match first), or `code` for one exact item (when both are sent, `code` wins, and `q` must still be valid; neither → 400). No match → 200 with `total: 0`. Each item carries the discount flag of the configured insurer as `<INSURER_NAME>_descuento` (default `pami_descuento`). An upstream outage does not affect search once the mirror holds data; with an empty mirror and the catalogue unreachable the answer is 500 UPSTREAM_UNAVAILABLE.',
  })
  @ApiEnveloped(200, MedicamentosPageDto)
  @ApiErrors()
  buscar(@Query() query: BuscarMedicamentosQueryDto): Promise<MedicamentosPage> {
    return this.medicamentos.buscar(query);
  }
}
