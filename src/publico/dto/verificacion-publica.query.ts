import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * The link's query: its signature only. Any value is taken as it comes (a missing, repeated or
 * malformed one is simply not the CUIR's signature): the answer is the one 404 either way.
 */
export class VerificacionPublicaQuery {
  /**
   * The link's signature, as printed (22 base64url characters); without it, 404
   * @example 'q1w2e3r4t5y6u7i8o9p0aZ'
   */
  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })
  @Allow()
  f?: unknown;
}
