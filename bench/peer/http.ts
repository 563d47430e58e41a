/** The answers' envelope (contract §1) the way Nest's docs teach: an interceptor and a filter. */
import { randomUUID } from 'node:crypto';
import {
  ArgumentsHost,
  BadRequestException,
  CallHandler,
  Catch,
  ExceptionFilter,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

/** An error with the contract's code. */
export class ApiError extends HttpException {
  constructor(status: number, code: string, message: string, details?: unknown[]) {
    super({ code, message, ...(details ? { details } : {}) }, status);
  }
}

/** ValidationPipe's exceptionFactory: 400 VALIDATION_FAILED naming each field. */
export function validationFailed(errors: ValidationError[]): BadRequestException {
  const details: Array<{ field: string; issue: string }> = [];
  const walk = (list: ValidationError[], prefix: string) => {
    for (const e of list) {
      const field = prefix ? `${prefix}.${e.property}` : e.property;
      for (const issue of Object.values(e.constraints ?? {})) details.push({ field, issue });
      walk(e.children ?? [], field);
    }
  };
  walk(errors, '');
  return new BadRequestException({
    code: 'VALIDATION_FAILED',
    message: 'Invalid request',
    details,
  });
}

/** `{success: true, data}` around every answer. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((data: unknown) => ({ success: true, data })));
  }
}

/** `{success: false, error: {code, message, details?}, request_id}` for every error. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const status =
      exception instanceof HttpException ? exception.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
    const body = exception instanceof HttpException ? exception.getResponse() : undefined;
    const error =
      body && typeof body === 'object' && 'code' in body
        ? body
        : { code: status >= 500 ? 'INTERNAL' : 'ERROR', message: HttpStatus[status] ?? 'Error' };
    if (status >= 500) process.stderr.write(`peer: ${String(exception)}\n`);
    res.status(status).json({ success: false, error, request_id: randomUUID() });
  }
}

export const IS_PUBLIC = 'peer:public';
/** A route without API credentials (health). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
export const SCOPE = 'peer:scope';
/** The scope a route needs. */
export const RequireScope = (scope: string) => SetMetadata(SCOPE, scope);
