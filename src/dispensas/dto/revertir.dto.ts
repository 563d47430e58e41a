import { IsDefined, IsString, Length } from 'class-validator';

export class RevertirDispensaDto {
  /**
   * Why the dispensation is reversed, 3–200 characters
   * @example 'Registrada por error: el paciente no retiró la medicación'
   */
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @Length(3, 200, { message: 'must be 3 to 200 characters' })
  motivo: string;
}
