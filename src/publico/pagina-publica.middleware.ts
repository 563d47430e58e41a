import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../common/errors/domain-error.js';
import { CSP_PAGINA_PUBLICA, paginaNoEncontrada } from './pagina-publica.js';
import type { PublicoRateLimit } from './publico-rate-limit.js';

/** Whether the caller asked for JSON rather than the page (a phone's browser asks for HTML). */
export const wantsJson = (req: Request): boolean =>
  req.accepts(['text/html', 'application/json']) === 'application/json';

/**
 * Every answer under /r (SPEC 11.8): the page's headers — cached by nobody, indexed by nobody,
 * nothing loaded or run, one answer per Accept — and a count against the address's budget
 * (VERIFICACION_PUBLICA_POR_MINUTO, RateLimit-* headers), before anything else can answer: a
 * path the router cannot decode, a body, a query parameter the route does not take, a wrong
 * method are answers of the page too. Past the budget, 429: the error envelope (the exception
 * filter's) to a JSON caller, a page saying as little to a browser. Mounted at /r by the app
 * (configure-app.ts), ahead of the body parser and Nest's router.
 */
export function paginaPublicaMiddleware(rateLimit: PublicoRateLimit) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Content-Security-Policy', CSP_PAGINA_PUBLICA);
    res.vary('Accept');
    rateLimit.view(req, res).then(
      () => next(),
      (err: unknown) => {
        if (!(err instanceof DomainError) || err.code !== 'RATE_LIMITED' || wantsJson(req))
          return next(err);
        for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
        res.status(429).type('html').send(paginaNoEncontrada(429));
      },
    );
  };
}
