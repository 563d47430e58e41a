import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { SEALING_STATE_SQL } from '../src/auditoria/audit-seals.sql.js';
import { BACKLOG_SQL } from '../src/recetas/notificacion/ministerio-backlog.metrics.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * The operators' kit names only metrics the service exposes: every metric in an alerting or
 * recording rule (ops/prometheus/) and in a dashboard query (ops/grafana/registry.json) is
 * declared on a running instance's /metrics. A renamed or removed metric fails here, not on a
 * silent dashboard or an alert that can never fire.
 */
describe('ops/: rules and dashboard against a live /metrics', () => {
  let t: TestApp;
  let exposed: Set<string>;

  beforeAll(async () => {
    t = await startTestApp({ MINISTRY_DELIVERY_ENABLED: 'false' });
    const text = await (await fetch(`${t.url}/metrics`)).text();
    exposed = new Set<string>();
    for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exposed.add(m[1]);
      if (m[2] === 'histogram' || m[2] === 'summary')
        for (const suffix of ['_bucket', '_count', '_sum']) exposed.add(`${m[1]}${suffix}`);
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  interface RuleFile {
    groups: Array<{ rules: Array<{ record?: string; alert?: string; expr: string }> }>;
  }
  const rules = (file: string) =>
    (load(readFileSync(`ops/prometheus/${file}`, 'utf8')) as RuleFile).groups.flatMap(
      (g) => g.rules,
    );
  const recording = rules('recording.yml');
  const alerting = rules('alerts.yml');
  const recorded = new Set(recording.map((r) => r.record!));
  const dashboard = JSON.parse(readFileSync('ops/grafana/registry.json', 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };

  /** Prometheus' own series, not the service's. */
  const FROM_PROMETHEUS = new Set(['up']);
  const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'bool']);

  /** The metric names a PromQL expression reads (functions, labels and literals left out). */
  const metricsOf = (expr: string): string[] => {
    const bare = expr
      .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // string literals
      .replace(/\{[^}]*\}/g, '') // label matchers
      .replace(/\[[^\]]*\]/g, '') // ranges
      .replace(/\b\d+(\.\d+)?(e[+-]?\d+)?\b/gi, '0') // numbers (1e9)
      .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ''); // grouping labels
    return [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
      .filter((m) => !m[2] && !PROMQL_WORDS.has(m[1]) && !/^\d/.test(m[1]))
      .map((m) => m[1]);
  };

  const missing = (exprs: Array<{ where: string; expr: string }>) =>
    exprs.flatMap(({ where, expr }) =>
      metricsOf(expr)
        .filter((name) => !exposed.has(name) && !recorded.has(name) && !FROM_PROMETHEUS.has(name))
        .map((name) => `${where}: ${name}`),
    );

  it('reads the metric names out of PromQL (the check itself)', () => {
    expect(
      metricsOf(
        'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{route="/v1/x",status=~"5.."}[5m]))) > 2 * max(a_b:c) / 1e9',
      ),
    ).toEqual(['http_request_duration_seconds_bucket', 'a_b:c']);
  });

  it('every alerting and recording rule reads metrics the service exposes', () => {
    const exprs = [...recording, ...alerting].map((r) => ({
      where: r.alert ?? r.record!,
      expr: r.expr,
    }));
    expect(exprs.length).toBeGreaterThanOrEqual(20);
    expect(missing(exprs)).toEqual([]);
  });

  it('every dashboard query reads metrics the service exposes or the rules record', () => {
    const exprs = dashboard.panels.flatMap((p) =>
      (p.targets ?? []).map((q) => ({ where: p.title, expr: q.expr })),
    );
    expect(exprs.length).toBeGreaterThanOrEqual(20);
    expect(missing(exprs)).toEqual([]);
  });

  it('the gauges read from the database answer (their SQL runs on the migrated schema)', async () => {
    const ds = t.app.get(DataSource);
    const [backlog] = await ds.query<Array<{ pending: number; oldest_age: number }>>(BACKLOG_SQL);
    expect(typeof backlog.pending).toBe('number');
    expect(typeof backlog.oldest_age).toBe('number');
    const [sealing] = await ds.query<Array<Record<string, unknown>>>(SEALING_STATE_SQL);
    expect(Object.keys(sealing).sort()).toEqual(['last_seal', 'oldest_unsealed_age']);
    const text = await (await fetch(`${t.url}/metrics`)).text();
    expect(text).toMatch(/^db_pool_connections\{state="total"\} [1-9]/m);
    expect(text).toMatch(/^auditoria_seal_interval_seconds 60$/m);
    expect(text).toMatch(/^catalogo_sync_interval_seconds 86400$/m);
  });

  it("each alert's runbook annotation names a section of ops/runbook.md", () => {
    const runbook = readFileSync('ops/runbook.md', 'utf8');
    const anchors = new Set(
      [...runbook.matchAll(/^## (.+)$/gm)].map((m) =>
        m[1].toLowerCase().replace(/[^a-z0-9]+/g, ''),
      ),
    );
    const file = load(readFileSync('ops/prometheus/alerts.yml', 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string; annotations: Record<string, string> }> }>;
    };
    const alerts = file.groups.flatMap((g) => g.rules);
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    for (const a of alerts) {
      expect(a.annotations.summary).toBeTruthy();
      expect(a.annotations.description).toBeTruthy();
      expect(a.annotations.runbook).toBe(`ops/runbook.md#${a.alert.toLowerCase()}`);
      expect(anchors).toContain(a.alert.toLowerCase());
    }
  });
});
