import { Allow } from 'class-validator';

/**
 * The link's query: its signature only. Any value is taken as it comes (a missing, repeated or
 * malformed one is simply not the CUIR's signature): the answer is the one 404 either way. The
 * handler validates it with the app's pipe, after the page's headers and count; the route's
 * @ApiQuery documents it.
 */
export class VerificacionPublicaQuery {
  @Allow()
  f?: unknown;
}
