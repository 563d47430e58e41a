import { IsDefined, IsIn, Matches } from 'class-validator';
import { INDEC_JURISDICTION_CODES } from '../../common/indec-jurisdictions.js';

const required = { message: 'is required' };

export class GenerateCuirDto {
  /**
   * Group identifier: exactly 25 digits
   * @example '0000000000000000000012345'
   */
  @IsDefined(required)
  @Matches(/^[0-9]{25}$/, { message: 'must be a string of exactly 25 digits' })
  groupId: string;

  /**
   * Item within the group: 01–99
   * @example '01'
   */
  @IsDefined(required)
  @Matches(/^(0[1-9]|[1-9][0-9])$/, { message: 'must be a string of 2 digits from 01 to 99' })
  itemId: string;

  /**
   * INDEC jurisdiction code of the prescriber's licence
   * @example '02'
   */
  @IsDefined(required)
  @IsIn(INDEC_JURISDICTION_CODES as string[], {
    message: 'must be one of the 24 INDEC jurisdiction codes (02, 06, … 94)',
  })
  state: string;

  /**
   * 01 medication, 02 medical device, 03 studies/practices/procedures
   * @example '01'
   */
  @IsDefined(required)
  @IsIn(['01', '02', '03'], { message: 'must be 01, 02 or 03' })
  prescriptionType: string;

  /**
   * Subtype, 2 digits. For 01 the dispensing condition (01 libre, 02 bajo receta, 03 bajo receta archivada, 04 legalmente restringido); 00 for 02 and 03. The compatibility is enforced only when the client has local rules on (422 CUIR_RULES_VIOLATED).
   * @example '02'
   */
  @IsDefined(required)
  @Matches(/^[0-9]{2}$/, { message: 'must be a string of exactly 2 digits' })
  medicationType: string;
}

export class CuirComponentsDto {
  /** @example '0001' */
  @Matches(/^[0-9]{4}$/) platform: string;
  /** @example '0001' */
  @Matches(/^[0-9]{4}$/) repository: string;
  /** @example '02' */
  @Matches(/^[0-9]{2}$/) jurisdiction: string;
  /** @example '0102' */
  @Matches(/^[0-9]{4}$/) type_subtype: string;
  /** @example '0000000000000000000012345' */
  @Matches(/^[0-9]{25}$/) groupId: string;
  /** @example '01' */
  @Matches(/^[0-9]{2}$/) itemId: string;
}

export class GeneratedCuirDto {
  /**
   * 41 digits
   * @example '00010001020102000000000000000000001234501'
   */
  @Matches(/^[0-9]{41}$/)
  cuir: string;

  components: CuirComponentsDto;
}
