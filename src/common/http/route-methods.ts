import type { Express } from 'express';

interface RouteEntry {
  pattern: RegExp;
  /** One letter a segment, `l` literal or `p` parameter: `lp` < `pp` in specificity order. */
  shape: string;
  methods: Set<string>;
}

/**
 * Knows which methods each registered route answers, so an unmatched request can be told
 * 405 (path exists, method does not) rather than 404. Built once after the app is initialised,
 * from the Express router, without touching the router's own matching state.
 *
 * A path is its most specific routes': a literal segment beats a parameter, left to right, so
 * `/v1/recetas/registrar` is the POST route's alone, not also `/v1/recetas/:id_transaccion`'s.
 * The service's parameters are ids (digits, UUIDs, CUIRs), never a word a sibling route spells,
 * and GET on such a path is a 404: the parameter route must not be advertised there.
 */
export class RouteMethodIndex {
  private entries: RouteEntry[] = [];
  /**
   * The answers for paths asked before: every POST asks (json-only.middleware), and testing
   * each route's pattern cost ~9 µs a request under load. Bounded: paths carry ids, so the
   * memory is dropped whole when full rather than growing with them.
   */
  private readonly answers = new Map<string, readonly string[]>();

  loadFrom(express: Express): void {
    const stack = (express as unknown as { router?: { stack?: unknown[] } }).router?.stack ?? [];
    const byPath = new Map<string, Set<string>>();
    for (const layer of stack as Array<{
      route?: { path: unknown; methods: Record<string, boolean> };
    }>) {
      const route = layer.route;
      if (!route || typeof route.path !== 'string') continue;
      const methods = byPath.get(route.path) ?? new Set<string>();
      for (const [method, on] of Object.entries(route.methods)) {
        if (on && method !== '_all') methods.add(method.toUpperCase());
      }
      byPath.set(route.path, methods);
    }
    this.entries = [...byPath].map(([path, methods]) => ({
      pattern: toRegExp(path),
      shape: shapeOf(path),
      methods,
    }));
    this.answers.clear();
  }

  /** Methods registered for this path; empty when no route has the path at all. */
  allowedMethods(path: string): readonly string[] {
    let answer = this.answers.get(path);
    if (answer === undefined) {
      let shape: string | undefined;
      const found = new Set<string>();
      for (const e of this.entries) {
        if (!e.pattern.test(path)) continue;
        if (shape !== undefined && e.shape > shape) continue;
        if (shape === undefined || e.shape < shape) found.clear();
        shape = e.shape;
        e.methods.forEach((m) => found.add(m));
      }
      answer = Object.freeze([...found]);
      if (path.length <= PATH_REMEMBERED_MAX) {
        if (this.answers.size >= ANSWERS_MAX) this.answers.clear();
        this.answers.set(path, answer);
      }
    }
    return answer;
  }
}

/** Distinct paths remembered, each at most PATH_REMEMBERED_MAX long: half a megabyte at most. */
const ANSWERS_MAX = 2_000;
/** Longer paths (no route's is) are answered without being remembered. */
const PATH_REMEMBERED_MAX = 256;

const shapeOf = (path: string): string =>
  path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? 'p' : 'l'))
    .join('');

function toRegExp(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}
