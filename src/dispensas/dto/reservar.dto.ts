import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { CUIR_PATTERN, IsCuir } from '../../cuir/cuir.public.js';

export class ReservarDto {
  @ApiProperty({
    description: 'The prescription to hold, by its CUIR: a structurally valid 41-digit CUIR',
    pattern: CUIR_PATTERN,
    minLength: 41,
    maxLength: 41,
    example: '00010001020102000000000000000000001234501',
  })
  @IsDefined({ message: 'is required' })
  @IsCuir()
  cuir: string;
}

export class ReservaDto {
  @ApiProperty({ format: 'uuid', example: 'b7c9d2e4-1f3a-4b5c-8d6e-7f8091a2b3c4' })
  reserva_id: string;
  @ApiProperty({ example: '00010001020102000000000000000000001234501' }) cuir: string;
  @ApiProperty({
    format: 'date-time',
    description:
      'When it lapses (DISPENSA_RESERVA_MINUTOS after it was made or last asked for again, never past DISPENSA_RESERVA_MAX_MINUTOS after it was made); it frees itself then',
  })
  vence_at: string;
}
