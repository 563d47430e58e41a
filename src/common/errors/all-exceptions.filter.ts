import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { isPoolExhausted } from '../database-errors.js';
import { RouteMethodIndex } from '../http/route-methods.js';
import type { RequestWithContext } from '../http/request-context.js';
import { PreEncodedError } from '../http/pre-encoded-json.js';
import { DomainError } from './domain-error.js';
import { ErrorCode, ErrorDetail, statusOf } from './error-codes.js';
import { errorEnvelope } from './error-envelope.js';

interface Problem {
  status: number;
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'IDEMPOTENCY_KEY_IN_PROGRESS',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

const problem = (status: number, code: ErrorCode, message: string): Problem => ({
  status,
  code,
  message,
});

/** Errors raised by Express's body parser before any Nest code runs. */
const BODY_PARSER_ERRORS: Record<string, Problem> = {
  'entity.parse.failed': problem(400, 'MALFORMED_JSON', 'Request body is not valid JSON'),
  'entity.too.large': problem(413, 'PAYLOAD_TOO_LARGE', 'Request body exceeds 100 kB'),
  'encoding.unsupported': problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content encoding'),
  'charset.unsupported': problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported charset'),
  'request.aborted': problem(400, 'MALFORMED_JSON', 'Request body was aborted'),
  'request.size.invalid': problem(400, 'MALFORMED_JSON', 'Request body size mismatch'),
};

/** No pool connection came free within 5 s: a burst, not a fault, so 503 with Retry-After. */
const POOL_EXHAUSTED: Problem = {
  status: 503,
  code: 'SERVICE_UNAVAILABLE',
  message: 'The service is busy (no database connection came free in time); retry',
  headers: { 'Retry-After': '1' },
};

/** The one place where anything thrown becomes an HTTP answer (contract §1's error envelope). */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly routes: RouteMethodIndex,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    // An answer encoded before (an idempotent replay): sent byte for byte.
    if (exception instanceof PreEncodedError)
      return send(res, exception.status, exception.headers, exception.text);
    const problem = this.toProblem(exception, req);
    const requestId = (req as RequestWithContext).requestId;
    if (problem.status >= 500) {
      this.logger.error(
        { err: exception, request_id: requestId, code: problem.code },
        'request error',
      );
    }
    const body = errorEnvelope(problem.code, problem.message, problem.details, requestId);
    send(res, problem.status, problem.headers ?? {}, JSON.stringify(body));
  }

  private toProblem(exception: unknown, req: Request): Problem {
    if (exception instanceof DomainError) {
      return {
        status: statusOf(exception.code),
        code: exception.code,
        message: exception.message,
        details: exception.details,
        headers: exception.headers,
      };
    }
    // Express's adapter wraps body-parser errors in an HttpException; the original is the cause.
    const original =
      exception instanceof HttpException && exception.cause ? exception.cause : exception;
    const bodyParserType = (original as { type?: unknown })?.type;
    if (typeof bodyParserType === 'string' && BODY_PARSER_ERRORS[bodyParserType]) {
      return BODY_PARSER_ERRORS[bodyParserType];
    }
    if (exception instanceof HttpException) return this.fromHttpException(exception, req);
    if (isPoolExhausted(exception)) return POOL_EXHAUSTED;
    return { status: 500, code: 'INTERNAL', message: 'Internal server error' };
  }

  private fromHttpException(exception: HttpException, req: Request): Problem {
    const status = exception.getStatus();
    if (status === 404) {
      // Nest answers unmatched routes with a 404; a path that exists under another method is a 405.
      const wrongMethod = this.routes.methodNotAllowed(req);
      if (wrongMethod) return this.toProblem(wrongMethod, req);
      return { status: 404, code: 'NOT_FOUND', message: 'Resource not found' };
    }
    const code = STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED');
    const message = status >= 500 ? 'Internal server error' : exception.message;
    return { status, code, message };
  }
}

function send(res: Response, status: number, headers: Record<string, string>, text: string) {
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // Set explicitly: a route may have set another content type before it failed.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.status(status).send(text);
}
