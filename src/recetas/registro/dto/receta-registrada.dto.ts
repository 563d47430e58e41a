import { ApiProperty } from '@nestjs/swagger';
import { ESTADOS } from '../../receta-state.js';

/** The answer to a registration: the transaction started, awaiting the ministry. */
export class RecetaRegistradaDto {
  @ApiProperty({ description: 'Sequential transaction id (decimal string)', example: '1042' })
  id_transaccion: string;
  @ApiProperty({ enum: ESTADOS, example: 'PENDING' }) estado: 'PENDING';
  @ApiProperty({
    example: 'Transacción iniciada; pendiente de confirmación del Ministerio de Salud',
  })
  mensaje: string;
  @ApiProperty({ example: '00010001020102000000000000000000001234501' }) cuir: string;
  @ApiProperty({ nullable: true, type: String, example: 'RX-2026-000123' }) id_de_receta:
    string | null;
}
