import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/http/access.js';
import { CurrentClient } from '../../common/http/current-client.decorator.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import {
  CurrentIdempotencyClaim,
  IdempotencyClaim,
  Idempotent,
} from '../../idempotency/idempotency.public.js';
import { ApiEnveloped, ApiErrors } from '../../openapi/api-responses.js';
import { RecetaRegistradaDto } from './dto/receta-registrada.dto.js';
import { RegistrarRecetaDto } from './dto/registrar-receta.dto.js';
import { RegistroService } from './registro.service.js';

@ApiTags('recetas')
@Controller('v1/recetas')
export class RegistroController {
  constructor(private readonly registro: RegistroService) {}

  @Post('registrar')
  @HttpCode(201)
  @RequireScope('recetas:write')
  @Idempotent({ settledInWrite: true })
  @ApiOperation({
    summary: 'Register a prescription (scope recetas:write)',
    description:
      "Checks the CUIR's structure, the professional's enablement in REFEPS (licence in the CUIR's jurisdiction), and that the CUIR was issued to the caller by POST /v1/cuir/generar (else 422 CUIR_NOT_OWNED, checked before the duplicate check; whatever generation issued to the caller registers), then stores the prescription and queues its ministry notification in one transaction. Answers PENDING; follow the transaction at GET /v1/transacciones/{id_transaccion}.",
  })
  @ApiEnveloped(201, RecetaRegistradaDto)
  @ApiErrors({
    409: 'CUIR_ALREADY_REGISTERED, IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: {
      description:
        "PROFESSIONAL_NOT_ENABLED, CUIR_NOT_OWNED, or MEDICAMENTO_DESCONOCIDO: an item's codigo is not in the medication catalogue (`details` names each; not checked while the catalogue mirror has never synced)",
      examples: {
        medicamentoDesconocido: {
          code: 'MEDICAMENTO_DESCONOCIDO',
          message:
            'Not in the medication catalogue: items[1].codigo (see GET /v1/medicamentos/buscar); nothing was written',
          details: [
            {
              field: 'items[1].codigo',
              issue: '9999999 is not a code of the medication catalogue',
            },
          ],
        },
        profesionalNoHabilitado: {
          code: 'PROFESSIONAL_NOT_ENABLED',
          message: 'Licence 222333 is not enabled in jurisdiction 14',
          details: [
            {
              field: 'matricula_profesional',
              issue: 'is not enabled in REFEPS for jurisdiction 14',
            },
          ],
        },
      },
    },
    500: 'UPSTREAM_UNAVAILABLE (registry down and nothing cached; nothing stored) or INTERNAL',
  })
  registrar(
    @CurrentClient() client: AuthenticatedClient,
    @Body() dto: RegistrarRecetaDto,
    @CurrentIdempotencyClaim() claim?: IdempotencyClaim,
  ): Promise<RecetaRegistradaDto> {
    return this.registro.registrar(client, dto, claim);
  }
}
