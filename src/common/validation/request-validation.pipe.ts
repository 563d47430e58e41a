import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error.js';
import { ErrorCode, ErrorDetail } from '../errors/error-codes.js';

/** Keys that could reach an object's prototype chain through a mapper; never legitimate input. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The app-wide DTO validation of SPEC 1: unknown fields and query parameters are refused with
 * UNKNOWN_FIELD, every failing field is named in `details`, and a DTO constraint may carry
 * `context: { code }` to answer with a more specific code (e.g. INVALID_DATE_RANGE).
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      stopAtFirstError: true,
      exceptionFactory: (errors) => toDomainError(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      if (metadata.type === 'body' && value === undefined) value = {};
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new DomainError('VALIDATION_FAILED', 'Request body must be a JSON object', [
          { field: '(body)', issue: 'must be a JSON object' },
        ]);
      }
      const forbidden = findForbiddenKey(value, '');
      if (forbidden) {
        throw new DomainError('UNKNOWN_FIELD', `Unknown field: ${forbidden}`, [
          { field: forbidden, issue: 'is not a known field' },
        ]);
      }
      const withNul = findNul(value, '');
      if (withNul) {
        throw new DomainError('VALIDATION_FAILED', 'Request validation failed', [
          { field: withNul, issue: 'must not contain the NUL character (U+0000)' },
        ]);
      }
    }
    return super.transform(value, metadata);
  }
}

function findForbiddenKey(value: unknown, path: string, depth = 0): string | undefined {
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const child = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) return child;
    const found = findForbiddenKey((value as Record<string, unknown>)[key], child, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000: a string with it would pass every length and
 * type rule and then fail the INSERT (or, in a key, the stored error answer of an idempotent
 * request) with a 500. Looks at keys and strings; the depth is bounded by jsonDepthMiddleware.
 */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(body)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const field = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    const found = key.includes('\u0000') ? field : findNul(child, field);
    if (found) return found.replaceAll('\u0000', '\\u0000');
  }
  return undefined;
}

interface Flat {
  field: string;
  issue: string;
  unknown: boolean;
  code?: ErrorCode;
}

function flatten(errors: ValidationError[], parent = ''): Flat[] {
  return errors.flatMap((e) => {
    const field = /^\d+$/.test(e.property)
      ? `${parent}[${e.property}]`
      : parent
        ? `${parent}.${e.property}`
        : e.property;
    const own = Object.entries(e.constraints ?? {}).map(([name, message]) => ({
      field,
      unknown: name === 'whitelistValidation',
      issue:
        name === 'whitelistValidation'
          ? 'is not a known field'
          : message.startsWith(`${e.property} `)
            ? message.slice(e.property.length + 1)
            : message,
      code: (e.contexts?.[name] as { code?: ErrorCode } | undefined)?.code,
    }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

export function toDomainError(errors: ValidationError[]): DomainError {
  const flat = flatten(errors);
  const details = (list: Flat[]): ErrorDetail[] =>
    list.map(({ field, issue }) => ({ field, issue }));
  const unknown = flat.filter((f) => f.unknown);
  if (unknown.length > 0) {
    return new DomainError(
      'UNKNOWN_FIELD',
      `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.map((u) => u.field).join(', ')}`,
      details(unknown),
    );
  }
  const specific = flat.find((f) => f.code);
  if (specific?.code) {
    return new DomainError(specific.code, specific.issue, details(flat.filter((f) => f.code)));
  }
  return new DomainError('VALIDATION_FAILED', 'Request validation failed', details(flat));
}
