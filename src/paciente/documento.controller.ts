import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { RawResponse } from '../common/http/raw-response.decorator.js';
import { ApiErrors } from '../openapi/api-responses.js';
import { PDF_BUSY, pdfAnswer, PDF_RESPONSE } from './pdf-answer.js';
import { PacienteService } from './paciente.service.js';

/** The printable prescription for the platform that registered it (contract §8). */
@ApiTags('recetas')
@Controller('v1/recetas')
export class DocumentoController {
  constructor(private readonly paciente: PacienteService) {}

  @Get(':id_transaccion/documento')
  @RequireScope('recetas:read')
  @RawResponse()
  @ApiParam({ name: 'id_transaccion', example: '1042' })
  @ApiProduces('application/pdf')
  @ApiOperation({
    summary: 'The printable prescription, for its owner (scope recetas:read)',
    description:
      'One A4 page: the CUIR in digits, as a Code 128 barcode and as a QR code of its verification URL (PUBLIC_BASE_URL + /v1/recetas/verificar/{cuir}); dates and validity; prescriber licence, jurisdiction and name when the registry gave one; patient document; items; state, with a clear ANULADA mark when cancelled; the content SHA-256. Rendered off the request thread, at most PDF_RENDERS_MAX at once with PDF_RENDERS_QUEUE waiting; beyond that 503 SERVICE_UNAVAILABLE with Retry-After.',
  })
  @ApiOkResponse(PDF_RESPONSE)
  @ApiErrors({ 404: "NOT_FOUND (also for another client's id)", 503: PDF_BUSY })
  async documento(
    @CurrentClient() client: AuthenticatedClient,
    @Param('id_transaccion') id: string,
  ): Promise<StreamableFile> {
    const r = await this.paciente.documentoPorCliente(client, id);
    return pdfAnswer(r.pdf, r.cuir);
  }
}
