import { IsDefined, IsISO8601, IsUUID } from 'class-validator';
import { IsCuir } from '../../cuir/cuir.public.js';

export class ReservarDto {
  /**
   * The prescription to hold, by its CUIR: a structurally valid 41-digit CUIR
   * @example '00010001020102000000000000000000001234501'
   */
  @IsDefined({ message: 'is required' })
  @IsCuir()
  cuir: string;
}

export class ReservaDto {
  /** @example 'b7c9d2e4-1f3a-4b5c-8d6e-7f8091a2b3c4' */
  @IsUUID('all')
  reserva_id: string;
  /** @example '00010001020102000000000000000000001234501' */
  cuir: string;
  /**
   * When it lapses (DISPENSA_RESERVA_MINUTOS after it was made or last asked for again, never past DISPENSA_RESERVA_MAX_MINUTOS after it was made); it frees itself then
   */
  @IsISO8601()
  vence_at: string;
}
