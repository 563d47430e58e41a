import type { NextFunction, Request, Response } from 'express';
import iconv from 'iconv-lite';
import { DomainError } from '../errors/domain-error.js';
import { fieldText } from '../validation/request-text.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** An object or array being read: the names met so far, or the index reached. */
interface Frame {
  object: boolean;
  /** An object's names so far (decoded); created at its first name. */
  names?: Set<string>;
  /** The name whose value is being read (objects) or the element's index (arrays). */
  at: string | number;
  /** Whether the next string of an object is a name (after `{` or `,`), not a value. */
  expectName: boolean;
}

/**
 * The path (`items[1].codigo`) of the first name twice in one object of `json`, or null.
 * JSON.parse keeps the last silently, so a gateway reading the first would see another body.
 * Names are compared decoded; bytes that are not JSON end the scan with null.
 */
export function duplicateKeyPath(json: Buffer): string | null {
  const stack: Frame[] = [];
  const n = json.length;
  let i = 0;
  while (i < n) {
    const c = json[i];
    if (c === QUOTE) {
      const start = i + 1;
      let escaped = false;
      i = start;
      while (i < n && json[i] !== QUOTE) {
        if (json[i] === BACKSLASH) {
          escaped = true;
          i++;
        }
        i++;
      }
      if (i >= n) return null; // an unterminated string: not well-formed JSON
      const top = stack[stack.length - 1];
      if (top?.object && top.expectName) {
        const name = escaped ? decodeName(json, start - 1, i + 1) : json.toString('utf8', start, i);
        if (name === null) return null;
        top.names ??= new Set();
        top.at = name;
        if (top.names.has(name)) return fieldText(stack.map((f) => f.at));
        top.names.add(name);
        top.expectName = false;
      }
      i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      stack.push({ object: c === OPEN_OBJECT, at: 0, expectName: c === OPEN_OBJECT });
      i++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
      i++;
    } else if (c === COMMA) {
      const top = stack[stack.length - 1];
      if (top === undefined) return null;
      if (top.object) top.expectName = true;
      else top.at = (top.at as number) + 1;
      i++;
    } else {
      i++;
    }
  }
  return null;
}

/** A name written with escapes, decoded as JSON does; null when it is not a JSON string. */
function decodeName(json: Buffer, from: number, to: number): string | null {
  try {
    return JSON.parse(json.toString('utf8', from, to)) as string;
  } catch {
    return null;
  }
}

/** The raw body and charset, under a private symbol (a WeakMap costs each garbage collection). */
const RAW_BODY = Symbol('rawJsonBody');
type WithRawBody = Request & { [RAW_BODY]?: { bytes: Buffer; charset: string } };

/** body-parser's `verify` hook: keeps a reference to the bytes it is about to parse. */
export function keepRawBody(req: Request, _res: Response, bytes: Buffer, charset: string): void {
  (req as WithRawBody)[RAW_BODY] = { bytes, charset };
}

/**
 * After the parser: a body naming a member twice in one object is refused with 400 (contract
 * §1), the member named; the idempotency hash, validation and the handler never see it.
 */
export function jsonDuplicateKeysMiddleware(
  req: Request,
  _res: Response,
  next: NextFunction,
): void {
  const raw = (req as WithRawBody)[RAW_BODY];
  (req as WithRawBody)[RAW_BODY] = undefined;
  // Decoded as body-parser decoded it (iconv-lite, the same version).
  const text =
    raw &&
    (raw.charset === 'utf-8' ? raw.bytes : Buffer.from(iconv.decode(raw.bytes, raw.charset)));
  const path = text ? duplicateKeyPath(text) : null;
  if (path === null) return next();
  next(
    new DomainError('VALIDATION_FAILED', 'Request body names a member twice', [
      { field: path, issue: 'appears more than once in the same object' },
    ]),
  );
}
