import type { TestClient } from '../support/clients.js';
import type { TestApp } from '../support/test-app.js';
import { LogGuard } from './support/log-guard.js';
import { framedResponses, socketExchange } from './support/raw-http.js';
import { startWatchedApp, watchedClient } from './support/setup.js';

const GARBAGE = '\x01NOT HTTP AT ALL\r\n\r\n';

/** The HTTP/1.1 edges Node's parser handles before the app: pipelining, slow clients. */
describe('HTTP edges over a raw socket', () => {
  const guard = new LogGuard();

  describe('pipelining: a malformed request behind a valid one', () => {
    let t: TestApp;
    let c: TestClient;
    beforeAll(async () => {
      t = await startWatchedApp(guard, 'pipelining-app');
      c = await watchedClient(t, guard);
    });
    afterAll(async () => {
      await t.stop();
    });

    const auth = () => `X-API-Key: ${c.key}\r\nX-API-Secret: ${c.secret}\r\n`;
    const cuirBody = () =>
      JSON.stringify({
        groupId: `${Date.now()}${process.pid}`.padStart(25, '5').slice(-25),
        itemId: '01',
        state: '02',
        prescriptionType: '01',
        medicationType: '02',
      });

    it.each<[string, () => string, number]>([
      [
        'GET listar',
        () =>
          `GET /v1/recetas/listar?fecha_desde=2026-01-01T00:00:00Z&fecha_hasta=2026-01-02T00:00:00Z HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`,
        200,
      ],
      [
        'POST cuir/generar',
        () => {
          const body = cuirBody();
          return `POST /v1/cuir/generar HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        },
        201,
      ],
    ])(
      '%s + garbage in one write: the valid answer arrives intact first, then the 400',
      async (_name, valid, status) => {
        const { raw } = await socketExchange(t.url, valid() + GARBAGE);
        const answers = framedResponses(raw);
        expect(answers.length).toBeGreaterThanOrEqual(1);
        expect(answers[0].status).toBe(status);
        expect(JSON.parse(answers[0].text)).toMatchObject({ success: true });
        // Then the parser's 400 (in the envelope), or just the close: nothing else.
        expect(answers.length).toBeLessThanOrEqual(2);
        if (answers[1]) {
          expect(answers[1].status).toBe(400);
          expect(JSON.parse(answers[1].text)).toMatchObject({
            success: false,
            error: { code: 'VALIDATION_FAILED' },
          });
        }
      },
    );

    it('two valid requests + garbage: both answers, in order, before the 400', async () => {
      const get = `GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n`;
      const list = `GET /v1/recetas/listar?fecha_desde=2026-01-01T00:00:00Z&fecha_hasta=2026-01-02T00:00:00Z HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`;
      const answers = framedResponses((await socketExchange(t.url, list + get + GARBAGE)).raw);
      expect(answers.map((a) => a.status).slice(0, 2)).toEqual([200, 200]);
      expect(JSON.parse(answers[0].text).data).toHaveProperty('items');
      expect(answers.slice(2).map((a) => a.status)).toEqual(answers.length > 2 ? [400] : []);
    });
  });

  describe('slow clients (REQUEST_TIMEOUT_MS=2000)', () => {
    const TIMEOUT_MS = 2000;
    let t: TestApp;
    let c: TestClient;
    beforeAll(async () => {
      t = await startWatchedApp(guard, 'slow-clients-app', {
        REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
      });
      c = await watchedClient(t, guard);
    });
    afterAll(async () => {
      await t.stop();
    });

    /** 408 in the envelope (or at least the close) within the timeout and 5 s of slack. */
    const expectTimedOut = (res: { raw: Buffer; closedAfterMs?: number }) => {
      expect(res.closedAfterMs).toBeDefined();
      expect(res.closedAfterMs).toBeLessThan(TIMEOUT_MS + 5000);
      const answers = framedResponses(res.raw);
      expect(answers.map((a) => a.status)).toEqual([408]);
      expect(answers[0].headers['x-content-type-options']).toBe('nosniff');
      expect(JSON.parse(answers[0].text)).toMatchObject({
        success: false,
        error: { code: 'REQUEST_TIMEOUT' },
      });
    };

    it('stalled headers and a stalled body get their 408 in time', async () => {
      const body = '{"groupId": "';
      const [headers, bodies] = await Promise.all([
        // Headers that never end.
        socketExchange(
          t.url,
          `GET /v1/recetas/listar HTTP/1.1\r\nHost: x\r\nX-API-Key: ${c.key}\r\n`,
          {
            timeoutMs: TIMEOUT_MS + 8000,
          },
        ),
        // A body that stops after its first bytes.
        socketExchange(
          t.url,
          `POST /v1/cuir/generar HTTP/1.1\r\nHost: x\r\nX-API-Key: ${c.key}\r\nX-API-Secret: ${c.secret}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n${body}`,
          { timeoutMs: TIMEOUT_MS + 8000 },
        ),
      ]);
      expectTimedOut(headers);
      expectTimedOut(bodies);
    });

    it('a body trickling in a byte at a time is cut off at the timeout too', async () => {
      const head = `POST /v1/cuir/generar HTTP/1.1\r\nHost: x\r\nX-API-Key: ${c.key}\r\nX-API-Secret: ${c.secret}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
      const res = await socketExchange(t.url, head, {
        rest: '{',
        pauseMs: 1000,
        timeoutMs: TIMEOUT_MS + 8000,
      });
      expectTimedOut(res);
    });
  });

  it('logs carry no document number, name or secret', () => {
    expect(guard.findings()).toEqual([]);
  });
});
