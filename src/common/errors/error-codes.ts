import { assertNames } from '../naming.js';

/**
 * The error codes every module may answer with (contract §1), and their statuses. A module adds
 * its own with `defineErrorCodes` and extends `ErrorCodes` by declaration merging.
 */
const COMMON_ERROR_CODES = {
  MALFORMED_JSON: 400,
  VALIDATION_FAILED: 400,
  UNKNOWN_FIELD: 400,
  INVALID_DATE_RANGE: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 500,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** A code → status table, as a module declares it. */
export type ErrorCodeTable = Readonly<Record<string, number>>;

/** Every error code of the program: the common ones, extended by each module's errors file. */

export interface ErrorCodes extends Record<keyof typeof COMMON_ERROR_CODES, number> {}

export type ErrorCode = Extract<keyof ErrorCodes, string>;

export interface ErrorDetail {
  field: string;
  issue: string;
}

/** Declares a module's codes (listed in its slice, registered at start); a bad name throws. */
export const defineErrorCodes = <T extends ErrorCodeTable>(table: T): T => {
  assertNames('errorCode', Object.keys(table), 'defineErrorCodes');
  return table;
};

const catalogue = new Map<string, number>(Object.entries(COMMON_ERROR_CODES));

/** Adds a module's codes to the catalogue; one code may not have two statuses. */
export function registerErrorCodes(table: ErrorCodeTable = {}): void {
  for (const [code, status] of Object.entries(table)) {
    const known = catalogue.get(code);
    if (known !== undefined && known !== status)
      throw new Error(`error code ${code} declared with statuses ${known} and ${status}`);
    catalogue.set(code, status);
  }
}

/** The HTTP status of a code; an unregistered code is a bug, answered as 500. */
export const statusOf = (code: string): number => catalogue.get(code) ?? 500;

/** Every registered code, for the OpenAPI document's enum. */
export const errorCodes = (): string[] => [...catalogue.keys()];
