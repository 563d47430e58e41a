import { readFileSync } from 'node:fs';

/** The parts of a V8 .cpuprofile (node --cpu-prof) the summary reads. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  total_ms: number;
  /** Time not idle: what the process spent working. */
  busy_ms: number;
  /** Share of busy time spent with each package anywhere on the stack (inclusive). */
  packages_inclusive: Array<{ name: string; pct: number }>;
  /** Share of busy time in each package's own code (self). */
  packages_self: Array<{ name: string; pct: number }>;
  /** The busiest functions by self time. */
  functions_self: Array<{ name: string; where: string; pct: number }>;
  /** Inclusive shares of named concerns (logging, validation, reflection, …). */
  concerns: Array<{ name: string; pct: number }>;
}

/** Groups a frame: a package under node_modules, a folder of the app, node's internals, or V8. */
export function category(url: string, functionName: string): string {
  if (!url) {
    if (functionName.startsWith('(')) return functionName; // (idle) (program) (garbage collector)
    return '(native)';
  }
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (nm) return nm[1];
  if (url.startsWith('node:')) return 'node:' + (url.slice(5).split('/')[0] ?? '');
  const app = /\/dist\/((?:src|sandbox|migrations)\/[^/]+)/.exec(url);
  if (app) return `app:${app[1]}`;
  return url.replace(/^file:\/\//, '');
}

/**
 * Concerns the brief asks about, matched on the stack (inclusive): a sample counts once per
 * concern however many matching frames it has.
 */
const CONCERNS: Array<{ name: string; test: (cat: string, fn: string) => boolean }> = [
  {
    name: 'logging (pino, sonic-boom stdout writes)',
    test: (c) => c === 'pino' || c === 'sonic-boom' || c.startsWith('pino-'),
  },
  { name: 'socket writes (writev)', test: (_c, f) => f === 'writev' },
  {
    name: 'validation (class-validator/transformer)',
    test: (c) => c === 'class-validator' || c === 'class-transformer' || c === 'validator',
  },
  {
    name: 'reflection (Reflector / reflect-metadata)',
    test: (c, f) => c === 'reflect-metadata' || /^(getAllAndOverride|getAllAndMerge)$/.test(f),
  },
  { name: 'JSON.stringify', test: (c, f) => c === '(native)' && f === 'stringify' },
  { name: 'JSON.parse', test: (c, f) => c === '(native)' && f === 'parse' },
  { name: 'typeorm', test: (c) => c === 'typeorm' },
  { name: 'pg (driver)', test: (c) => c === 'pg' || c === 'pg-protocol' || c === 'pg-pool' },
  { name: 'express + body-parser', test: (c) => /^(express|body-parser|router|raw-body)$/.test(c) },
  { name: '@nestjs/core', test: (c) => c === '@nestjs/core' },
  { name: 'rxjs', test: (c) => c === 'rxjs' },
  { name: 'prom-client', test: (c) => c === 'prom-client' },
  { name: 'pg-boss', test: (c) => c === 'pg-boss' },
  { name: 'auth (app:src/auth)', test: (c) => c === 'app:src/auth' },
  { name: 'garbage collector', test: (c) => c === '(garbage collector)' },
];

const IDLE = new Set(['(idle)', '(root)']);

/**
 * `window` (ms before the profile's end) keeps only the samples taken under load: startup
 * (module loading, Nest's scan) and shutdown are left out.
 */
export function summariseProfile(
  file: string,
  window?: { fromEndMs: number; toEndMs: number },
  top = 15,
): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const lo = window ? p.endTime - window.fromEndMs * 1000 : -Infinity;
  const hi = window ? p.endTime - window.toEndMs * 1000 : Infinity;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const selfTime = new Map<number, number>();
  let total = 0;
  let clock = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    clock += dt;
    if (clock < lo || clock > hi) continue;
    total += dt;
    selfTime.set(p.samples[i], (selfTime.get(p.samples[i]) ?? 0) + dt);
  }

  const pkgSelf = new Map<string, number>();
  const pkgIncl = new Map<string, number>();
  const fnSelf = new Map<string, { where: string; t: number }>();
  const concern = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of selfTime) {
    const node = byId.get(id);
    if (!node) continue;
    const cat = category(node.callFrame.url, node.callFrame.functionName);
    if (IDLE.has(cat)) continue;
    busy += t;
    pkgSelf.set(cat, (pkgSelf.get(cat) ?? 0) + t);
    const fnKey = `${node.callFrame.functionName || '(anonymous)'} ${cat}`;
    const where = `${node.callFrame.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
    const f = fnSelf.get(fnKey) ?? { where, t: 0 };
    f.t += t;
    fnSelf.set(fnKey, f);
    // Inclusive: every package and concern on this sample's stack, once each.
    const cats = new Set<string>();
    const hit = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n) break;
      const c = category(n.callFrame.url, n.callFrame.functionName);
      cats.add(c);
      for (const k of CONCERNS) if (k.test(c, n.callFrame.functionName)) hit.add(k.name);
    }
    for (const c of cats) if (!IDLE.has(c)) pkgIncl.set(c, (pkgIncl.get(c) ?? 0) + t);
    for (const k of hit) concern.set(k, (concern.get(k) ?? 0) + t);
  }
  const pct = (t: number) => Math.round((1000 * t) / Math.max(busy, 1)) / 10;
  const ranked = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, t]) => ({ name, pct: pct(t) }));
  return {
    file,
    total_ms: Math.round(total / 1000),
    busy_ms: Math.round(busy / 1000),
    packages_inclusive: ranked(pkgIncl),
    packages_self: ranked(pkgSelf),
    functions_self: [...fnSelf.entries()]
      .sort((a, b) => b[1].t - a[1].t)
      .slice(0, top)
      .map(([k, v]) => ({ name: k, where: v.where, pct: pct(v.t) })),
    concerns: CONCERNS.map((k) => ({ name: k.name, pct: pct(concern.get(k.name) ?? 0) })).sort(
      (a, b) => b.pct - a.pct,
    ),
  };
}

export function formatProfile(title: string, s: ProfileSummary): string {
  const lines = [
    `## ${title}: ${s.busy_ms} ms busy of ${s.total_ms} ms profiled (${s.file})`,
    'inclusive by package (share of busy time with the package on the stack):',
    ...s.packages_inclusive.map((p) => `  ${p.pct.toFixed(1).padStart(5)}%  ${p.name}`),
    'concerns (inclusive):',
    ...s.concerns
      .filter((c) => c.pct > 0)
      .map((c) => `  ${c.pct.toFixed(1).padStart(5)}%  ${c.name}`),
    'self time by package:',
    ...s.packages_self.map((p) => `  ${p.pct.toFixed(1).padStart(5)}%  ${p.name}`),
    'top functions by self time:',
    ...s.functions_self.map((f) => `  ${f.pct.toFixed(1).padStart(5)}%  ${f.name}  (${f.where})`),
  ];
  return lines.join('\n');
}
