import type { ErrorDetail } from './error-codes.js';

/** The error envelope of contract §1, in its member order (the filter and stored answers share it). */
export function errorEnvelope(
  code: string,
  message: string,
  details: ErrorDetail[] | undefined,
  requestId: string,
) {
  return {
    success: false as const,
    error: { code, message, ...(details ? { details } : {}) },
    request_id: requestId,
  };
}
