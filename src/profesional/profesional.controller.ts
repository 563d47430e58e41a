import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { ProfesionalVerificationDto, VerifyProfesionalDto } from './dto/verify-profesional.dto.js';
import { ProfesionalService } from './profesional.service.js';

@ApiTags('profesional')
@Controller('v1/profesional')
export class ProfesionalController {
  constructor(private readonly profesional: ProfesionalService) {}

  @Post('verificar')
  @HttpCode(200)
  @RequireScope('profesional:read')
  @ApiOperation({
    summary: 'Verify a health professional in REFEPS (scope profesional:read)',
    description:
      "Reads the national registry of health professionals (REFEPS, through SISA). With `jurisdiccion` the licence held there is chosen (404 if there is none); without it, the first enabled licence, else the first. `refeps_id` lists the ids of all the professional's licences, joined by commas; `activo` is the chosen licence's enablement. Answers are cached: hits for minutes (REGISTRY_CACHE_TTL_SECONDS, default 300), not-found answers shorter (REGISTRY_NEGATIVE_CACHE_TTL_SECONDS, default 60). While the registry is down a recently cached hit is still served (REGISTRY_STALE_TTL_SECONDS, default 3600); otherwise 500 UPSTREAM_UNAVAILABLE. Names are returned as the registry writes them.",
  })
  @ApiEnveloped(200, ProfesionalVerificationDto)
  @ApiErrors({
    404: 'NOT_FOUND: not in the registry, or no licence in the requested jurisdiccion',
    500: 'UPSTREAM_UNAVAILABLE: the registry failed, refused or timed out (INTERNAL otherwise)',
  })
  verificar(@Body() dto: VerifyProfesionalDto): Promise<ProfesionalVerificationDto> {
    return this.profesional.verificar(dto);
  }
}
