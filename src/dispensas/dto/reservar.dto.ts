import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { CUIR_PATTERN } from '../../cuir/cuir-patterns.js';
import { IsCuir } from '../../cuir/is-cuir.validator.js';

export class ReservarDto {
  @ApiProperty({
    description: 'The prescription to hold, by its CUIR: a structurally valid 41-digit CUIR',
    pattern: CUIR_PATTERN,
    minLength: 41,
    maxLength: 41,
    example: '00010001020102000000000000000000007654301',
  })
  @IsDefined({ message: 'is required' })
  @IsCuir()
  cuir: string;
}

export class ReservaDto {
  @ApiProperty({ format: 'uuid', example: '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b' })
  reserva_id: string;
  @ApiProperty({ example: '00010001020102000000000000000000001234501' }) cuir: string;
  @ApiProperty({
    format: 'date-time',
    description:
      'When it lapses (DISPENSA_RESERVA_MINUTOS after it was made or last asked for again, never past DISPENSA_RESERVA_MAX_MINUTOS after it was made); it frees itself then',
  })
  vence_at: string;
}
