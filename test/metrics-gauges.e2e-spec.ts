import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Some gauges are read from the shared database, so every instance reports the same
 * cluster-wide value: their help says to aggregate them with max, never sum.
 */
describe('/metrics: cluster-wide gauges say how to aggregate them', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.stop();
  });

  it.each([
    'job_queue_jobs',
    'catalogo_mirror_items',
    'catalogo_sync_last_success_timestamp_seconds',
  ])('%s', async (name) => {
    const text = (await request(t.url).get('/metrics').expect(200)).text;
    const help = new RegExp(`^# HELP ${name} (.*)$`, 'm').exec(text)?.[1];
    expect(help).toMatch(/cluster-wide/);
    expect(help).toMatch(/max, not sum/);
  });
});
