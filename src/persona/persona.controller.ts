import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { PersonaVerificationDto, VerifyPersonaDto } from './dto/verify-persona.dto.js';
import { PersonaService } from './persona.service.js';

@ApiTags('persona')
@Controller('v1/persona')
export class PersonaController {
  constructor(private readonly persona: PersonaService) {}

  @Post('verificar')
  @HttpCode(200)
  @RequireScope('persona:read')
  @ApiOperation({
    summary: 'Verify a citizen in RENAPER (scope persona:read)',
    description:
      "Reads the national citizen registry (RENAPER, through SISA) by DNI. `edad` is computed from the registry's birth date on Argentina's calendar at request time; `domicilio` is one line. Citizen data is not stored: it is kept only in a short in-memory cache per client (PERSONA_CACHE_TTL_SECONDS, default 60; one client's lookups never speed up another's) and never served once the registry fails. Names are returned as the registry writes them.",
  })
  @ApiEnveloped(200, PersonaVerificationDto)
  @ApiErrors({
    404: 'NOT_FOUND: no person with that document in the registry',
    500: 'UPSTREAM_UNAVAILABLE: the registry failed, refused (e.g. daily quota) or timed out (INTERNAL otherwise)',
  })
  verificar(
    @CurrentClient() client: AuthenticatedClient,
    @Body() dto: VerifyPersonaDto,
  ): Promise<PersonaVerificationDto> {
    return this.persona.verificar(client, dto);
  }
}
