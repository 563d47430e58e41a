import { getMetadataStorage } from 'class-validator';
import { createRequire } from 'node:module';
import { DomainError } from '../errors/domain-error.js';
import type { ErrorDetail } from '../errors/error-codes.js';

/** Unknown fields named in an answer at most (a 100 kB body holds thousands of keys). */
export const MAX_NAMED_FIELDS = 20;

/** The first MAX_NAMED_FIELDS details, then one saying how many more there are. */
export function capDetails(details: ErrorDetail[], what: string): ErrorDetail[] {
  if (details.length <= MAX_NAMED_FIELDS) return details;
  const more = details.length - MAX_NAMED_FIELDS;
  return [...details.slice(0, MAX_NAMED_FIELDS), { field: '…', issue: `and ${more} more ${what}` }];
}

/** The UNKNOWN_FIELD answer naming the first MAX_NAMED_FIELDS of `fields`, and a count of `total`. */
export function unknownFields(
  fields: string[],
  noun: 'field' | 'query parameter',
  total = fields.length,
): DomainError {
  const named = fields.slice(0, MAX_NAMED_FIELDS);
  const more = total - named.length;
  const details = named.map((field) => ({ field, issue: `is not a known ${noun}` }));
  if (more > 0) details.push({ field: '…', issue: `and ${more} more unknown ${noun}s` });
  return new DomainError(
    'UNKNOWN_FIELD',
    `Unknown ${noun}${total > 1 ? 's' : ''}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    details,
  );
}

const knownByClass = new WeakMap<object, Set<string>>();

/** The properties a DTO class declares (those class-validator's whitelist keeps). */
function knownFields(dto: DtoClass): Set<string> {
  let known = knownByClass.get(dto);
  if (!known) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    known = new Set(metadata.map((m) => m.propertyName));
    knownByClass.set(dto, known);
  }
  return known;
}

type DtoClass = abstract new () => unknown;

/** class-transformer's record of `@Type(() => Nested)`, untyped (@nestjs/mapped-types reads it too). */
const typeMetadata = createRequire(import.meta.url)('class-transformer/cjs/storage.js') as {
  defaultMetadataStorage: {
    findTypeMetadata(
      target: DtoClass,
      property: string,
    ): { typeFunction: () => unknown } | undefined;
  };
};

function nestedDto(dto: DtoClass, property: string): DtoClass | undefined {
  const nested = typeMetadata.defaultMetadataStorage
    .findTypeMetadata(dto, property)
    ?.typeFunction();
  return typeof nested === 'function' && nested !== Object ? (nested as DtoClass) : undefined;
}

interface Found {
  names: string[];
  total: number;
}

/** Counts the keys `dto` does not declare, in `value` and its nested DTOs, naming the first. */
function collectUnknown(value: object, dto: DtoClass, path: string, found: Found): void {
  const known = knownFields(dto);
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!known.has(key)) {
      found.total++;
      if (found.names.length < MAX_NAMED_FIELDS) found.names.push(at);
      continue;
    }
    const child = (value as Record<string, unknown>)[key];
    if (child === null || typeof child !== 'object') continue;
    const nested = nestedDto(dto, key);
    if (!nested) continue;
    if (!Array.isArray(child)) collectUnknown(child, nested, at, found);
    else
      child.forEach((element: unknown, i) => {
        if (element !== null && typeof element === 'object' && !Array.isArray(element))
          collectUnknown(element, nested, `${at}[${i}]`, found);
      });
  }
}

/**
 * Refuses more unknown keys than an answer names in one pass, before the whitelist builds an
 * error object for each (tens of ms for a 100 kB body); fewer are left to the whitelist.
 */
export function assertFewUnknownKeys(value: object, dto: unknown): void {
  if (typeof dto !== 'function' || dto === Object || knownFields(dto as DtoClass).size === 0)
    return;
  const found: Found = { names: [], total: 0 };
  collectUnknown(value, dto as DtoClass, '', found);
  if (found.total > MAX_NAMED_FIELDS) throw unknownFields(found.names, 'field', found.total);
}
