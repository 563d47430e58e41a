import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../common/errors/domain-error.js';
import { CSP_PAGINA_PUBLICA, paginaNoEncontrada } from './pagina-publica.js';
import type { PublicoRateLimit } from './publico-rate-limit.js';

/** Whether the caller asked for JSON rather than the page (a phone's browser asks for HTML). */
export const wantsJson = (req: Request): boolean =>
  req.accepts(['text/html', 'application/json']) === 'application/json';

/**
 * Every answer under /r (SPEC 11.8), mounted ahead of the body parser and the router so that
 * even a path, body, query or method they refuse gets them: the page's headers (cached and
 * indexed by nobody, nothing loaded or run, one answer per Accept) and a count against the
 * address's budget. Past it, 429: the error envelope to a JSON caller, a page to a browser.
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
