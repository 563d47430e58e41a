import type { ErrorCode, ErrorDetail } from './error-codes.js';

/** An error as the service writes it, for the OpenAPI document's examples. */
export interface ErrorExample {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  /** The key among a response's examples, when one code has several (default: the code). */
  name?: string;
  /** A short line naming the case (default: none). */
  summary?: string;
}
