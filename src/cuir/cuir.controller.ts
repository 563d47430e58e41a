import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../common/http/access.js';
import { CurrentClient } from '../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { ApiEnveloped, ApiErrors } from '../openapi/api-responses.js';
import { CuirService } from './cuir.service.js';
import { GenerateCuirDto, GeneratedCuirDto } from './dto/generate-cuir.dto.js';

@ApiTags('cuir')
@Controller('v1/cuir')
export class CuirController {
  constructor(private readonly cuir: CuirService) {}

  @Post('generar')
  @HttpCode(201)
  @RequireScope('cuir:write')
  @ApiOperation({
    summary: 'Generate a CUIR (scope cuir:write)',
    description:
      "Builds the 41-digit CUIR of Res. MS 2214/2025 Annex IV: platform (the calling client's prescribing-platform id, set with the credentials tool's --platform-id; CUIR_PLATFORM_ID when unset) + repository (this service's CUIR_REPOSITORY_ID) + state + prescriptionType + medicationType + groupId + itemId. Every issuance is recorded, and a CUIR belongs to the client it was first issued to: one already issued to another client answers 409 CUIR_ALREADY_ISSUED whatever the policy. With the client's uniqueness policy on (default), a second request for the same groupId+itemId answers 409 CUIR_ALREADY_ISSUED; off, the same input returns the same CUIR. Only the CUIRs issued here to the caller register, and every one of them does (with local rules off, an unlisted subtype too).",
  })
  @ApiEnveloped(201, GeneratedCuirDto)
  @ApiErrors({
    409: 'CUIR_ALREADY_ISSUED (groupId+itemId issued already under the policy, or the CUIR issued to another client)',
    422: 'CUIR_RULES_VIOLATED (local rules on)',
  })
  generate(
    @CurrentClient() client: AuthenticatedClient,
    @Body() dto: GenerateCuirDto,
  ): Promise<GeneratedCuirDto> {
    return this.cuir.generate(client, dto);
  }
}
