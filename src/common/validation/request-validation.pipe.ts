import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error.js';
import { ErrorCode, ErrorDetail } from '../errors/error-codes.js';
import { assertFewUnknownKeys, capDetails, unknownFields } from './unknown-fields.js';

/** Keys that could reach an object's prototype chain through a mapper; never legitimate input. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The app-wide DTO validation of contract §1: unknown fields and query parameters are refused with
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
      const forbidden = findForbiddenKey(value);
      if (forbidden) {
        throw new DomainError('UNKNOWN_FIELD', `Unknown field: ${forbidden}`, [
          { field: forbidden, issue: 'is not a known field' },
        ]);
      }
      // One walk over the body on the way through; the NUL and surrogate scans that name the
      // field (NUL first, wherever it is) only run for a body that has either.
      if (firstPath(value, 0, isUnstorable, isUnstorable)) throw unstorableText(value);
      assertFewUnknownKeys(value, metadata.metatype);
    }
    return super.transform(value, metadata);
  }
}

/** Text PostgreSQL cannot store: U+0000, or an unpaired surrogate (see LONE_SURROGATE). */
const isUnstorable = (s: string) => s.includes('\u0000') || LONE_SURROGATE.test(s);

/** The 400 for a body holding unstorable text, naming the first such field. */
function unstorableText(value: unknown): DomainError {
  const withNul = findNul(value);
  const detail = withNul
    ? { field: withNul, issue: 'must not contain the NUL character (U+0000)' }
    : {
        field: findLoneSurrogate(value) ?? '(body)',
        issue: 'must be valid Unicode text (it holds an unpaired surrogate)',
      };
  return new DomainError('VALIDATION_FAILED', 'Request validation failed', [detail]);
}

/** The path of the first key that is a prototype-reaching name, else undefined. */
function findForbiddenKey(value: unknown): string | undefined {
  const at = firstPath(
    value,
    0,
    (key) => FORBIDDEN_KEYS.has(key),
    () => false,
  );
  return at && pathText(at);
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000: a string with it would pass every length and
 * type rule and then fail the INSERT (or, in a key, the stored error answer of an idempotent
 * request) with a 500. Looks at keys and strings; the depth is bounded by jsonDepthMiddleware.
 */
function findNul(value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? '(body)' : undefined;
  const hasNul = (s: string) => s.includes('\u0000');
  const at = firstPath(value, 0, hasNul, hasNul);
  return at && pathText(at).replaceAll('\u0000', '\\u0000');
}

/**
 * An unpaired UTF-16 surrogate. JSON can carry one (`"\ud800"`) and JSON.parse keeps it, but
 * PostgreSQL's jsonb refuses it (a registration's items, a stored idempotent answer): without
 * this check such a string passed validation and failed the INSERT with a 500 (found by the
 * fuzzer). In text columns it would be silently replaced by U+FFFD, which is no better.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function findLoneSurrogate(value: unknown): string | undefined {
  const bad = (s: string) => LONE_SURROGATE.test(s);
  const at = firstPath(value, 0, bad, bad);
  // The field name itself may hold it, and the answer is stored as jsonb too.
  return (
    at &&
    pathText(at).replace(
      new RegExp(LONE_SURROGATE.source, 'g'),
      (c) => `\\u${c.charCodeAt(0).toString(16)}`,
    )
  );
}

/**
 * The keys leading to the first key that `badKey` flags, or to the first string value that
 * `badString` flags; undefined when none. Paths are only built for a hit (this runs on every
 * request body), and the walk stops 32 levels down.
 */
function firstPath(
  value: unknown,
  depth: number,
  badKey: (key: string) => boolean,
  badString: (s: string) => boolean,
): Array<string | number> | undefined {
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  const visit = (key: string | number, child: unknown): Array<string | number> | undefined => {
    if (typeof key === 'string' && badKey(key)) return [key];
    if (typeof child === 'string') return badString(child) ? [key] : undefined;
    const below = firstPath(child, depth + 1, badKey, badString);
    if (below) below.unshift(key);
    return below;
  };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = visit(i, value[i]);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const found = visit(key, (value as Record<string, unknown>)[key]);
    if (found) return found;
  }
  return undefined;
}

/** `items[0].nombre` from ['items', 0, 'nombre']. */
function pathText(path: Array<string | number>): string {
  return path.reduce<string>(
    (text, key, i) =>
      typeof key === 'number' ? `${text}[${key}]` : i === 0 ? key : `${text}.${key}`,
    '',
  );
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
    return unknownFields(
      unknown.map((u) => u.field),
      'field',
    );
  }
  const specific = flat.find((f) => f.code);
  if (specific?.code) {
    return new DomainError(
      specific.code,
      specific.issue,
      capDetails(details(flat.filter((f) => f.code)), 'problems'),
    );
  }
  return new DomainError(
    'VALIDATION_FAILED',
    'Request validation failed',
    capDetails(details(flat), 'problems'),
  );
}
