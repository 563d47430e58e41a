import { IsDefined, IsString, Length } from 'class-validator';

export class AnularRecetaDto {
  /**
   * Why the prescription is cancelled, 3–200 characters. Sent to the ministry with the notice; kept with the prescription (not in the event log).
   * @example 'Error en la dosis prescripta'
   */
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @Length(3, 200, { message: 'must be 3 to 200 characters' })
  motivo: string;
}
