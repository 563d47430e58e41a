import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DomainError } from '../common/errors/domain-error.js';
import { Public } from '../common/http/access.js';
import { RawResponse } from '../common/http/raw-response.decorator.js';
import { ErrorEnvelopeDto } from '../openapi/error-envelope.dto.js';
import { HEADERS, rateLimitHeaders } from '../openapi/standard-responses.js';
import { VerificacionPublicaDto } from './dto/verificacion-publica.dto.js';
import { VerificacionPublicaQuery } from './dto/verificacion-publica.query.js';
import { paginaNoEncontrada, paginaPublica } from './pagina-publica.js';
import { wantsJson } from './pagina-publica.middleware.js';
import { PublicoService } from './publico.service.js';

const NOT_FOUND =
  'NOT_FOUND: an unknown CUIR, a malformed one, or a missing or wrong signature `f` — one answer whatever the reason';
const LIMITED =
  'RATE_LIMITED: over VERIFICACION_PUBLICA_POR_MINUTO answers per minute to this client address (an IPv6 address counts as its /64); wait Retry-After seconds';
const BAD_QUERY =
  'UNKNOWN_FIELD: a query parameter other than `f` (or VALIDATION_FAILED: text the request rules refuse); counted against the address like any view';

/** A refusal: the error envelope, or for a browser a page that says as little. */
const jsonError = { 'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) } } };
const errorContent = { ...jsonError, 'text/html': { schema: { type: 'string', maxLength: 4000 } } };

/** Every answer of the page carries these (SPEC 11.8): paginaPublicaMiddleware sets them. */
const PAGE_HEADERS = {
  'Cache-Control': {
    ...HEADERS['Cache-Control'],
    required: true,
    schema: { type: 'string', enum: ['no-store'] },
  },
  'X-Robots-Tag': {
    description: '`noindex`: no search engine keeps the page',
    required: true,
    schema: { type: 'string', enum: ['noindex'] },
  },
  'Content-Security-Policy': {
    description: "Nothing may load or run; only the page's own style",
    required: true,
    schema: { type: 'string', maxLength: 400, pattern: "^default-src 'none'" },
  },
  Vary: {
    description: 'The answer depends on `Accept` (a page or JSON)',
    required: true,
    schema: { type: 'string', maxLength: 200, pattern: '\\bAccept\\b' },
  },
  ...rateLimitHeaders(true),
};

const Refusal = (status: number, description: string, content: typeof jsonError = errorContent) =>
  ApiResponse({ status, description, content, headers: PAGE_HEADERS });

/** The public verification behind the printed QR (contract §9.4): a page, or JSON on request. */
@ApiTags('publico')
@ApiExtraModels(VerificacionPublicaDto, ErrorEnvelopeDto)
@Public()
@RawResponse()
@Controller('r')
export class PublicoController {
  constructor(private readonly publico: PublicoService) {}

  @Get(':cuir')
  @ApiParam({
    name: 'cuir',
    description: 'The CUIR printed on the prescription (41 digits)',
    schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[0-9]+$' },
  })
  @ApiProduces('text/html', 'application/json')
  @ApiOperation({
    summary: 'Public verification of a prescription (the printed QR)',
    description:
      'No credentials. A small page in Spanish (with `Accept: application/json`: the success envelope with the same facts): that the prescription is registered here, its state, issue date, validity window, prescriber (licence, jurisdiction, name when known), each item (name, generic name and concentration when prescribed, quantity, how much was dispensed), and the content SHA-256 — nothing more: never the patient, the coverage or the diagnosis. Every answer, its refusals (400, 404, 429) included, carries `Cache-Control: no-store`, `X-Robots-Tag: noindex`, a Content-Security-Policy that lets nothing load or run, `Vary: Accept` and the address `RateLimit-*` headers, and counts against VERIFICACION_PUBLICA_POR_MINUTO. Every view is an event (`verificacion_publica`, actor `publico`); an X-Request-Id sent is echoed, never stored.',
  })
  @ApiOkResponse({
    description: 'The prescription is registered here',
    headers: PAGE_HEADERS,
    content: {
      'text/html': { schema: { type: 'string', maxLength: 20000 } },
      'application/json': {
        schema: {
          type: 'object',
          required: ['success', 'data'],
          additionalProperties: false,
          properties: {
            success: { type: 'boolean', enum: [true] },
            data: { $ref: getSchemaPath(VerificacionPublicaDto) },
          },
        },
      },
    },
  })
  @Refusal(400, BAD_QUERY, jsonError)
  @Refusal(404, NOT_FOUND)
  @Refusal(429, LIMITED)
  async ver(
    @Param('cuir') cuir: string,
    @Query() query: VerificacionPublicaQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const json = wantsJson(req);
    try {
      const data = await this.publico.ver(cuir, query.f);
      if (json) res.status(200).json({ success: true, data });
      else res.status(200).type('html').send(paginaPublica(data));
    } catch (err) {
      // JSON callers get the error envelope from the filter; a browser gets a page.
      if (json || !(err instanceof DomainError) || err.code !== 'NOT_FOUND') throw err;
      res.status(404).type('html').send(paginaNoEncontrada(404));
    }
  }
}
