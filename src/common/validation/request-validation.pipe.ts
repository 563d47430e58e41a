import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { pathText, refusedText } from './request-text.js';
import { assertFewUnknownKeys, capDetails, unknownFields } from './unknown-fields.js';

/** Keys that could reach an object's prototype chain through a mapper; never legitimate input. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The app-wide DTO validation of contract §1: UNKNOWN_FIELD, refused text before any DTO rule,
 * every failing field named, and `context: { code }` for a more specific code.
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
      const forbidden = forbiddenKeyPath(value);
      if (forbidden) {
        const field = pathText(forbidden);
        throw new DomainError('UNKNOWN_FIELD', `Unknown field: ${field}`, [
          { field, issue: 'is not a known field' },
        ]);
      }
      // Contract §1's text rule, for every field of every DTO at once (request-text.ts).
      const refused = refusedText(value);
      if (refused.length > 0) {
        throw new DomainError(
          'VALIDATION_FAILED',
          'Request validation failed',
          capDetails(refused, 'problems'),
        );
      }
      assertFewUnknownKeys(value, metadata.metatype);
    }
    return super.transform(value, metadata);
  }
}

/** The path of the first prototype-reaching key (built only for a hit), 32 levels down at most. */
function forbiddenKeyPath(value: unknown, depth = 0): Array<string | number> | undefined {
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  const entries: Iterable<[string | number, unknown]> = Array.isArray(value)
    ? value.entries()
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (typeof key === 'string' && FORBIDDEN_KEYS.has(key)) return [key];
    const below = forbiddenKeyPath(child, depth + 1);
    if (below) return [key, ...below];
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
  const unknown = flat.filter((f) => f.unknown);
  if (unknown.length > 0)
    return unknownFields(
      unknown.map((u) => u.field),
      'field',
    );
  // A constraint's own code (`context: { code }`) answers for the fields that carry one.
  const specific = flat.filter((f) => f.code);
  const [first] = specific;
  return new DomainError(
    first?.code ?? 'VALIDATION_FAILED',
    first?.issue ?? 'Request validation failed',
    capDetails(
      (first ? specific : flat).map(({ field, issue }) => ({ field, issue })),
      'problems',
    ),
  );
}
