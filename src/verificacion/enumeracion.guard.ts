import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuditTipo } from '../auditoria/auditoria.public.js';
import { AuditoriaService } from '../auditoria/auditoria.service.js';
import type { RequestWithContext } from '../common/http/request-context.js';
import { parseCuir } from '../cuir/cuir.public.js';
import { EnumeracionLimiter } from './enumeracion-limiter.js';

const TIPO = 'enumeracion:tipo';

/**
 * A route that names a CUIR (or a dispensation's or reservation's id) and spends the budget of
 * unknown ones (SPEC 11.5): past it, 429 before anything runs, the refusal logged as `tipo`.
 * The service counts the route's own misses (EnumeracionLimiter.notFound).
 */
export const CountsCuirMisses = (tipo: AuditTipo) =>
  applyDecorators(SetMetadata(TIPO, tipo), UseGuards(EnumeracionGuard));

/** A guard, so it comes before the Idempotency-Key's claim: a 429 is never a stored outcome. */
@Injectable()
export class EnumeracionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: EnumeracionLimiter,
    private readonly auditoria: AuditoriaService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithContext>();
    if (!req.apiClient) return true;
    const refusal = await this.limiter.refusal(req.apiClient.id);
    if (!refusal) return true;
    // The body is not validated yet: only a well-formed CUIR is written.
    const sent: unknown = (req.body as { cuir?: unknown } | undefined)?.cuir;
    const cuir = typeof sent === 'string' && parseCuir(sent).ok ? sent : null;
    await this.auditoria.recordBeside({
      tipo: this.reflector.get<AuditTipo>(TIPO, context.getHandler()),
      actor: req.apiClient.id,
      cuir,
      resultado: refusal.code,
    });
    throw refusal;
  }
}
