import { Controller, Get, Param, Req, StreamableFile, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { ApiResponseOptions } from '@nestjs/swagger';
import { CITIZEN_TOKEN_SCHEME, Public, RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import { RawResponse } from '../common/http/raw-response.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { CUIR_PATTERN } from '../cuir/cuir.public.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { CitizenTokenGuard, type RequestWithCitizen } from './citizen-token.guard.js';
import { RecetaPacienteDto } from './dto/receta-paciente.dto.js';
import { PacienteService } from './paciente.service.js';

/** A PDF answer, shown in the browser rather than downloaded, named after the CUIR. */
const pdfAnswer = (pdf: Buffer, cuir: string): StreamableFile =>
  new StreamableFile(pdf, {
    type: 'application/pdf',
    disposition: `inline; filename="receta-${cuir}.pdf"`,
    length: pdf.length,
  });

const PDF_RESPONSE: ApiResponseOptions = {
  description: 'The prescription as one A4 PDF page',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};

const PDF_BUSY =
  'SERVICE_UNAVAILABLE: every document renderer is busy and the short queue is full (PDF_RENDERS_MAX rendering, PDF_RENDERS_QUEUE waiting), or the instance is not ready or shutting down; retry after Retry-After seconds';

const CUIR_PARAM = ApiParam({
  name: 'cuir',
  description: 'The CUIR the citizen holds: 41 digits',
  schema: { type: 'string', pattern: CUIR_PATTERN, minLength: 41, maxLength: 41 },
});

const NOT_THEIRS =
  "NOT_FOUND: no prescription with this CUIR for this citizen — an unknown CUIR and another citizen's answer alike";
const LIMITED =
  'RATE_LIMITED: over PACIENTE_POR_MINUTO requests per minute for this citizen (the token CUIL), or PACIENTE_POR_IP_POR_MINUTO from this client address (every attempt, bad tokens included); wait Retry-After seconds';
const BAD_TOKEN =
  'UNAUTHENTICATED: no Bearer token, or one not signed RS256/RS512 by the issuer, expired, living over 300 s, or for another issuer or audience (API keys are not accepted here)';

/**
 * The citizen's own access (contract §8, Disp. DNSISA 1/2025 Annex IV), with the citizen's token
 * instead of API keys; mutual TLS with the ministry ends at the ingress (docs/health-authority.md).
 */
@ApiTags('paciente')
@ApiBearerAuth(CITIZEN_TOKEN_SCHEME)
@Public()
@UseGuards(CitizenTokenGuard)
@Controller('v1/paciente/recetas')
export class PacienteController {
  constructor(private readonly paciente: PacienteService) {}

  @Get(':cuir')
  @CUIR_PARAM
  @ApiOperation({
    summary: "A prescription issued to the citizen, by its CUIR (the citizen's token)",
    description:
      "The medication, its state and validity, and the link to its printable document. The token's `cuil` (11 digits, valid check digit) must be the prescription's patient's: its middle eight digits are the DNI.",
  })
  @ApiEnveloped(200, RecetaPacienteDto)
  @ApiErrors({ 401: BAD_TOKEN, 404: NOT_THEIRS, 429: LIMITED })
  receta(@Req() req: RequestWithCitizen, @Param('cuir') cuir: string): Promise<RecetaPacienteDto> {
    return this.paciente.receta(req.citizenCuil as string, cuir);
  }

  @Get(':cuir/documento')
  @RawResponse()
  @CUIR_PARAM
  @ApiProduces('application/pdf')
  @ApiOperation({
    summary: "The printable prescription, for the citizen (the citizen's token)",
    description:
      'One A4 page: the CUIR in digits, as a Code 128 barcode and as a QR code of its verification URL; dates and validity; prescriber; patient document; items; state (a clear ANULADA mark when cancelled); the content SHA-256. At most PDF_RENDERS_MAX render at once with PDF_RENDERS_QUEUE waiting; beyond that 503 SERVICE_UNAVAILABLE with Retry-After.',
  })
  @ApiOkResponse(PDF_RESPONSE)
  @ApiErrors({ 401: BAD_TOKEN, 404: NOT_THEIRS, 429: LIMITED, 503: PDF_BUSY })
  async documento(
    @Req() req: RequestWithCitizen,
    @Param('cuir') cuir: string,
  ): Promise<StreamableFile> {
    const pdf = await this.paciente.documentoPorCiudadano(req.citizenCuil as string, cuir);
    return pdfAnswer(pdf, cuir);
  }
}

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
      'One A4 page: the CUIR in digits, as a Code 128 barcode and as a QR code of its signed public verification link (PUBLIC_BASE_URL + /r/{cuir}?f={firma}); dates and validity; prescriber licence, jurisdiction and name when the registry gave one; patient document; items; state, with a clear ANULADA mark when cancelled; the content SHA-256. Rendered off the request thread, at most PDF_RENDERS_MAX at once with PDF_RENDERS_QUEUE waiting; beyond that 503 SERVICE_UNAVAILABLE with Retry-After.',
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
