import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../errors/error-codes.js';

/**
 * Requests Node's HTTP parser refuses before Express sees them (bytes outside the grammar in
 * the request line or a header, an unknown method, headers over the size limit, a request
 * that took too long to arrive). Node's default answer is a bare status line; contract §1 wants
 * the error envelope and X-Request-Id on every error the service emits.
 *
 * With pipelining, the bad request may follow valid ones whose answers are still being made:
 * written at once, the 400 would reach the client first, and be read as the answer to the
 * first request. So it waits until the responses to complete requests are finished, then goes
 * last. A request whose body stopped arriving is itself the one timed out: answered at once.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // Node's own field for the response writing to this socket (its default handler reads it
  // too); queued pipelined responses take it in turn as each one before them finishes.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    if (inFlight.req.complete) {
      inFlight.once('finish', () => answerClientError(err, socket));
      inFlight.once('close', () => {
        if (!inFlight.writableFinished) socket.destroy();
      });
      return;
    }
    // Its own answer has begun: a second status line would corrupt it, so just close.
    if (inFlight.headersSent) {
      socket.destroy();
      return;
    }
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
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
