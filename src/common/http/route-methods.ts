import type { Express } from 'express';

interface RouteEntry {
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * Knows which methods each registered route answers, so an unmatched request can be told
 * 405 (path exists, method does not) rather than 404. Built once after the app is initialised,
 * from the Express router, without touching the router's own matching state.
 */
export class RouteMethodIndex {
  private entries: RouteEntry[] = [];

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
    this.entries = [...byPath].map(([path, methods]) => ({ pattern: toRegExp(path), methods }));
  }

  /** Methods registered for this path; empty when no route has the path at all. */
  allowedMethods(path: string): string[] {
    const found = new Set<string>();
    for (const e of this.entries) if (e.pattern.test(path)) e.methods.forEach((m) => found.add(m));
    return [...found];
  }
}

function toRegExp(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}
