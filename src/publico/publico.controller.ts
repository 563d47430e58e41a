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
import { rateLimitHeaders } from '../openapi/standard-responses.js';
import { VerificacionPublicaDto } from './dto/verificacion-publica.dto.js';
import { VerificacionPublicaQuery } from './dto/verificacion-publica.query.js';
import { CSP_PAGINA_PUBLICA, paginaNoEncontrada, paginaPublica } from './pagina-publica.js';
import { PublicoRateLimit } from './publico-rate-limit.js';
import { PublicoService } from './publico.service.js';

const NOT_FOUND =
  'NOT_FOUND: an unknown CUIR, a malformed one, or a missing or wrong signature `f` — one answer whatever the reason';
const LIMITED =
  'RATE_LIMITED: over VERIFICACION_PUBLICA_POR_MINUTO views per minute from this client address; wait Retry-After seconds';

/** A refusal: the error envelope, or for a browser a page that says as little. */
const errorContent = {
  'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) } },
  'text/html': { schema: { type: 'string', maxLength: 4000 } },
};

/** Every answer past the address count carries the budget (as the /v1 routes do). */
const LIMIT_HEADERS = rateLimitHeaders(true);

/** Whether the caller asked for JSON rather than the page (a phone's browser asks for HTML). */
const wantsJson = (req: Request): boolean =>
  req.accepts(['text/html', 'application/json']) === 'application/json';

/**
 * The public verification behind the printed QR (contract §9.4): no credentials, a page in
 * Spanish (JSON on request), private to nobody and cached by nobody.
 */
@ApiTags('publico')
@ApiExtraModels(VerificacionPublicaDto, ErrorEnvelopeDto)
@Public()
@RawResponse()
@Controller('r')
export class PublicoController {
  constructor(
    private readonly publico: PublicoService,
    private readonly rateLimit: PublicoRateLimit,
  ) {}

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
      'No credentials. A small page in Spanish (with `Accept: application/json`: the success envelope with the same facts): that the prescription is registered here, its state, issue date, validity window, prescriber (licence, jurisdiction, name when known), each item with how much was dispensed, and the content SHA-256 — never the patient. Answers `Cache-Control: no-store`, `X-Robots-Tag: noindex` and a Content-Security-Policy that lets nothing load or run. Every view is an event (`verificacion_publica`, actor `publico`).',
  })
  @ApiOkResponse({
    description: 'The prescription is registered here',
    headers: LIMIT_HEADERS,
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
  @ApiResponse({
    status: 404,
    description: NOT_FOUND,
    content: errorContent,
    headers: LIMIT_HEADERS,
  })
  @ApiResponse({ status: 429, description: LIMITED, content: errorContent, headers: LIMIT_HEADERS })
  async ver(
    @Param('cuir') cuir: string,
    @Query() query: VerificacionPublicaQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Content-Security-Policy', CSP_PAGINA_PUBLICA);
    const json = wantsJson(req);
    res.vary('Accept');
    try {
      await this.rateLimit.view(req, res);
      const data = await this.publico.ver(cuir, query.f);
      if (json) res.status(200).json({ success: true, data });
      else res.status(200).type('html').send(paginaPublica(data));
    } catch (err) {
      // JSON callers get the error envelope from the filter; a browser gets a page.
      if (json || !(err instanceof DomainError)) throw err;
      const status = err.code === 'RATE_LIMITED' ? 429 : 404;
      if (status === 404 && err.code !== 'NOT_FOUND') throw err;
      for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
      res.status(status).type('html').send(paginaNoEncontrada(status));
    }
  }
}
