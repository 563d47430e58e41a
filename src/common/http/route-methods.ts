import type { Express, Request } from 'express';
import { DomainError } from '../errors/domain-error.js';

interface RouteEntry {
  pattern: RegExp;
  /** One letter a segment, `l` literal or `p` parameter: `lp` < `pp` in specificity order. */
  shape: string;
  methods: Set<string>;
}

/**
 * Which methods each route answers, so an unmatched request can be told 405 rather than 404;
 * read once from the Express router. A path is its most specific routes' (a literal segment
 * beats a parameter, left to right): `/v1/recetas/registrar` is not `/v1/recetas/:id`'s.
 */
export class RouteMethodIndex {
  private entries: RouteEntry[] = [];
  /** The answers for routes' literal paths, worked out once (json-only.middleware asks each POST). */
  private literal = new Map<string, readonly string[]>();

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
    this.literal = new Map(
      [...byPath.keys()]
        .filter((path) => !path.includes(':'))
        .map((path) => [path, this.match(path)] as const),
    );
  }

  /** Methods registered for this path; empty when no route has the path at all. */
  allowedMethods(path: string): readonly string[] {
    return this.literal.get(path) ?? this.match(path);
  }

  /** 405 with Allow when the path exists under other methods only, else undefined. */
  methodNotAllowed(req: Request): DomainError | undefined {
    const allowed = this.allowedMethods(req.path);
    if (allowed.length === 0 || allowed.includes(req.method)) return undefined;
    return new DomainError(
      'METHOD_NOT_ALLOWED',
      `Method ${req.method} not allowed on this path`,
      undefined,
      { headers: { Allow: allowed.join(', ') } },
    );
  }

  private match(path: string): readonly string[] {
    let shape: string | undefined;
    const found = new Set<string>();
    for (const e of this.entries) {
      if (!e.pattern.test(path)) continue;
      if (shape !== undefined && e.shape > shape) continue;
      if (shape === undefined || e.shape < shape) found.clear();
      shape = e.shape;
      e.methods.forEach((m) => found.add(m));
    }
    return Object.freeze([...found]);
  }
}

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
