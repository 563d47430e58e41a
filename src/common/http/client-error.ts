import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../errors/error-codes.js';

/**
 * Requests Node's HTTP parser refuses before Express sees them (bytes outside the grammar in
 * the request line or a header, an unknown method, headers over the size limit, a request
 * that took too long to arrive). Node's default answer is a bare status line; SPEC 1 wants
 * the error envelope and X-Request-Id on every error the service emits.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message]: [number, string, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          'HEADERS_TOO_LARGE',
          'Request headers are too large',
        ]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request took too long to arrive']
        : [400, 'Bad Request', 'VALIDATION_FAILED', 'Malformed HTTP request'];
  const requestId = randomUUID();
  const body = JSON.stringify({
    success: false,
    error: {
      code,
      message,
      ...(status === 400
        ? { details: [{ field: '(request)', issue: 'is not a well-formed HTTP/1.1 request' }] }
        : {}),
    },
    request_id: requestId,
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
