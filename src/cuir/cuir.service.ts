import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../common/database-errors.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../common/http/request-context.js';
import { InjectSettings } from '../config/inject-settings.js';
import { cuirSettings } from './cuir.settings.js';
import type { CuirSettings } from './cuir.settings.js';
import { buildCuir, CuirComponents, typeSubtype, validateComponents } from './cuir-format.js';
import { notIssuedToClientSql } from './cuir-ownership.sql.js';
import type { GenerateCuirDto, GeneratedCuirDto } from './dto/generate-cuir.dto.js';
import { IssuedCuirsRepository, UNIQUE_GROUP_ITEM_INDEX } from './issued-cuirs.repository.js';

const alreadyIssued = (message: string) => new DomainError('CUIR_ALREADY_ISSUED', message);

// Whether or not the owner registered it yet: the answer tells nothing about registrations.
const notOwned = () =>
  new DomainError('CUIR_NOT_OWNED', 'The CUIR was not issued to this client', [
    { field: 'cuir', issue: 'was not issued to this client by POST /v1/cuir/generar' },
  ]);

/**
 * CUIR generation and ownership (contract §3): a client's CUIRs carry its own platform id (or
 * CUIR_PLATFORM_ID), a CUIR belongs to the client it was first issued to, and only it registers it.
 */
@Injectable()
export class CuirService {
  constructor(
    private readonly ledger: IssuedCuirsRepository,
    @InjectSettings(cuirSettings) private readonly settings: CuirSettings,
  ) {}

  async generate(client: AuthenticatedClient, dto: GenerateCuirDto): Promise<GeneratedCuirDto> {
    const components: CuirComponents = {
      platform: client.cuirPlatformId ?? this.settings.platformId,
      repository: this.settings.repositoryId,
      jurisdiction: dto.state,
      prescriptionType: dto.prescriptionType,
      medicationType: dto.medicationType,
      groupId: dto.groupId,
      itemId: dto.itemId,
    };
    const issues = validateComponents(components, { enforceTypeSubtypeRules: client.cuirRules });
    // Details name the request's fields: the jurisdiction is `state` there.
    const details = issues.map(({ field, issue }) => ({
      field: field === 'jurisdiction' ? 'state' : field,
      issue,
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
    let recorded: boolean;
    try {
      recorded = await this.ledger.record(client.id, cuir, components, client.cuirUniqueness);
    } catch (err) {
      if (isUniqueViolation(err, UNIQUE_GROUP_ITEM_INDEX)) {
        throw alreadyIssued('A CUIR was already issued for this groupId and itemId');
      }
      throw err;
    }
    // Whatever the uniqueness policy: the same CUIR twice is only ever the same client's.
    if (!recorded) throw alreadyIssued('This CUIR was already issued to another client');
    const { platform, repository, jurisdiction, groupId, itemId } = components;
    return {
      cuir,
      components: {
        platform,
        repository,
        jurisdiction,
        type_subtype: typeSubtype(components),
        groupId,
        itemId,
      },
    };
  }

  /**
   * For the statement registering `cuir` for `clientId`: a guard that finds it was not issued to
   * that client (the write then does nothing), and the answer to give then. Only issuance decides.
   */
  notIssuedTo(clientId: string, cuir: string) {
    return { guard: notIssuedToClientSql(clientId, cuir), refusal: notOwned };
  }
}
