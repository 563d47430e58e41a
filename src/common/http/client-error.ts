import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../errors/error-codes.js';
import { errorEnvelope } from '../errors/error-envelope.js';

/**
 * Requests Node's HTTP parser refuses before Express sees them, answered with the error envelope
 * and X-Request-Id (contract §1) rather than Node's bare status line. With pipelining, the
 * answer waits for those to the complete requests before it, or it would be read as theirs.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // Node's own field for the response writing to this socket (its default handler reads it too).
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
  const [status, code, message]: [number, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', 'Request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive']
        : [400, 'VALIDATION_FAILED', 'Malformed HTTP request'];
  const requestId = randomUUID();
  const details =
    status === 400
      ? [{ field: '(request)', issue: 'is not a well-formed HTTP/1.1 request' }]
      : undefined;
  const body = JSON.stringify(errorEnvelope(code, message, details, requestId));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
