import { Inject, Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../common/database-errors.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { buildCuir, CuirComponents, typeSubtype, validateComponents } from './cuir-format.js';
import type { GenerateCuirDto, GeneratedCuirDto } from './dto/generate-cuir.dto.js';
import { IssuedCuirsRepository, UNIQUE_GROUP_ITEM_INDEX } from './issued-cuirs.repository.js';

/** API field names of the components, for error details. */
const REQUEST_FIELD: Record<string, string> = { jurisdiction: 'state' };

/** CUIR generation (SPEC 3): format from the pure module, policies per client, the ledger. */
@Injectable()
export class CuirService {
  constructor(
    private readonly ledger: IssuedCuirsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async generate(client: AuthenticatedClient, dto: GenerateCuirDto): Promise<GeneratedCuirDto> {
    const components: CuirComponents = {
      platform: this.config.cuir.platformId,
      repository: this.config.cuir.repositoryId,
      jurisdiction: dto.state,
      prescriptionType: dto.prescriptionType,
      medicationType: dto.medicationType,
      groupId: dto.groupId,
      itemId: dto.itemId,
    };
    const issues = validateComponents(components, { enforceTypeSubtypeRules: client.cuirRules });
    const details = issues.map((i) => ({
      field: REQUEST_FIELD[i.field] ?? i.field,
      issue: i.issue,
    }));
    if (issues.some((i) => i.kind === 'format')) {
      throw new DomainError('VALIDATION_FAILED', 'Request validation failed', details);
    }
    if (issues.length > 0) {
      throw new DomainError(
        'CUIR_RULES_VIOLATED',
        'Type and subtype are incompatible under the local rules',
        details,
      );
    }
    const cuir = buildCuir(components);
    try {
      await this.ledger.record(client.id, cuir, components, client.cuirUniqueness);
    } catch (err) {
      if (isUniqueViolation(err, UNIQUE_GROUP_ITEM_INDEX)) {
        throw new DomainError(
          'CUIR_ALREADY_ISSUED',
          'A CUIR was already issued for this groupId and itemId',
        );
      }
      throw err;
    }
    return {
      cuir,
      components: {
        platform: components.platform,
        repository: components.repository,
        jurisdiction: components.jurisdiction,
        type_subtype: typeSubtype(components),
        groupId: components.groupId,
        itemId: components.itemId,
      },
    };
  }
}
