import request from 'supertest';
import type { TestApp } from './test-app.js';

/** The sandbox's control API (faults, call counters) for one running app. */
export function sandboxControl(app: () => TestApp) {
  const url = () => {
    const u = app().sandboxUrl;
    if (!u) throw new Error('this app runs without the sandbox');
    return u;
  };
  return {
    fault: async (service: string, mode: string) => {
      await request(url()).post('/__sandbox/faults').send({ service, mode }).expect(200);
    },
    clearFaults: async () => {
      await request(url()).delete('/__sandbox/faults').expect(204);
    },
    resetCalls: async () => {
      await request(url()).delete('/__sandbox/calls').expect(204);
    },
    /** Requests each emulated system received so far. */
    calls: async (service: 'refeps' | 'renaper'): Promise<number> =>
      (await request(url()).get('/__sandbox/calls').expect(200)).body[service] as number,
  };
}
