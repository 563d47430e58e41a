import { FaultBoard, isFaultedCall, parseFaultRequest } from './faults.js';

const pattern = (rate: number, calls: number) =>
  Array.from({ length: calls }, (_, n) => (isFaultedCall(n, rate) ? 'F' : '.')).join('');

describe('isFaultedCall', () => {
  it('faults every call at rate 1 and none at rate 0', () => {
    expect(pattern(1, 5)).toBe('FFFFF');
    expect(pattern(0, 5)).toBe('.....');
  });

  it('alternates at rate 0.5, starting with an ok call', () => {
    expect(pattern(0.5, 6)).toBe('.F.F.F');
  });

  it('faults exactly floor(n * rate) of the first n calls', () => {
    expect(pattern(0.25, 8)).toBe('...F...F');
    expect(pattern(0.3, 10).split('F').length - 1).toBe(3);
  });
});

describe('parseFaultRequest', () => {
  it('defaults rate to 1 and delay_ms to 1500', () => {
    expect(parseFaultRequest({ service: 'refeps', mode: 'slow' })).toEqual({
      service: 'refeps',
      mode: 'slow',
      rate: 1,
      delay_ms: 1500,
    });
  });

  it.each([
    [null, 'body must be a JSON object'],
    [{ service: 'afip', mode: 'error' }, 'service must be one of'],
    [{ service: 'refeps', mode: 'broken' }, 'mode must be one of'],
    [{ service: 'refeps', mode: 'reject' }, 'does not apply to refeps'],
    [{ service: 'ministerio', mode: 'quota' }, 'does not apply to ministerio'],
    [{ service: 'catalogo', mode: 'auth' }, 'does not apply to catalogo'],
    [{ service: 'refeps', mode: 'error', rate: 1.5 }, 'rate must be'],
    [{ service: 'refeps', mode: 'error', rate: '0.5' }, 'rate must be'],
    [{ service: 'refeps', mode: 'slow', delay_ms: -1 }, 'delay_ms must be'],
  ])('rejects %j', (body, message) => {
    expect(parseFaultRequest(body)).toEqual(expect.stringContaining(message));
  });
});

describe('FaultBoard', () => {
  it('restarts the call count when a fault is set again and forgets it on "ok"', () => {
    const board = new FaultBoard();
    board.set({ service: 'renaper', mode: 'error', rate: 0.5, delay_ms: 0 });
    expect([board.next('renaper'), board.next('renaper')].map((f) => f?.mode)).toEqual([
      undefined,
      'error',
    ]);
    board.set({ service: 'renaper', mode: 'error', rate: 0.5, delay_ms: 0 });
    expect(board.next('renaper')).toBeUndefined();
    expect(board.next('refeps')).toBeUndefined();
    board.set({ service: 'renaper', mode: 'ok', rate: 1, delay_ms: 0 });
    expect(board.list()).toEqual([]);
  });
});
