import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, Matches } from 'class-validator';

export class VerifyPersonaDto {
  /**
   * Persona's DNI: 7 or 8 digits, no dots
   * @example '30111222'
   */
  @IsDefined({ message: 'is required' })
  @Matches(/^[0-9]{7,8}$/, { message: 'must be a string of 7 or 8 digits' })
  documento: string;
}

export class PersonaVerificationDto {
  /**
   * As the registry writes it (upper case)
   * @example 'ANA MARÍA'
   */
  nombre: string;
  /**
   * As the registry writes it (upper case)
   * @example 'FERNÁNDEZ'
   */
  apellido: string;
  @ApiProperty({
    example: 40,
    type: 'integer',
    format: 'int32',
    minimum: 0,
    // Birth years in the registry have four digits.
    maximum: 9999,
    description:
      "Whole years since the registry's birth date, on Argentina's calendar (America/Argentina/Buenos_Aires) at the time of the request",
  })
  edad: number;
  /**
   * One line: street and number, floor/flat, locality, province; empty parts left out, and a province equal to its locality written once
   * @example 'AV. CORRIENTES 1234, 5 B, CIUDAD AUTÓNOMA DE BUENOS AIRES'
   */
  domicilio: string;
  /** @example '30111222' */
  documento: string;
}
