import { IsOptional, IsString, Length } from 'class-validator';
import { availableParallelism } from 'node:os';
import { Documented } from '../config/setting-docs.js';
import { IntSetting, UrlSetting } from '../config/setting-decorators.js';
import { ConfigError, defineSettings, SettingsOf } from '../config/settings.js';

const ISSUER_DEFAULT = 'the sandbox (outside production)';

class PacienteVariables {
  @Documented("Mi Argentina's key set (JWKS); required in production", {
    defaultText: ISSUER_DEFAULT,
    env: "the citizen token's issuer: Mi Argentina's key set (JWKS). With the sandbox in use it defaults to it; production requires it",
  })
  @UrlSetting()
  PACIENTE_JWKS_URL?: string;
  @Documented("Mi Argentina's issuer; required in production", {
    defaultText: ISSUER_DEFAULT,
    env: "the citizen token's issuer (iss). With the sandbox in use it defaults to it; production requires it",
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  PACIENTE_JWT_ISSUER?: string;
  @Documented("this service's audience in the citizen's token; required in production", {
    defaultText: ISSUER_DEFAULT,
    env: "this service's audience (aud) in the citizen's token. With the sandbox in use it defaults to it; production requires it",
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  PACIENTE_JWT_AUDIENCE?: string;
  @Documented('patient routes: requests per citizen (token CUIL) and minute; then 429', {
    default: 30,
    env: "patient routes (/v1/paciente): requests per minute per citizen (the token's CUIL); past it, 429 RATE_LIMITED with Retry-After. Counted in RATE_LIMIT_STORE",
  })
  @IntSetting(1, 100000)
  PACIENTE_POR_MINUTO?: number;
  @Documented('patient routes: requests per address and minute (bad tokens too); then 429', {
    default: 120,
    env: 'patient routes (/v1/paciente): requests per minute per client address (every attempt, bad tokens included); past it, 429 RATE_LIMITED with Retry-After. Counted in RATE_LIMIT_STORE',
  })
  @IntSetting(1, 1000000)
  PACIENTE_POR_IP_POR_MINUTO?: number;
  @Documented(
    'printable prescriptions rendered at once (worker threads) per process; beyond: 503',
    {
      defaultText: 'the CPUs ÷ WEB_CONCURRENCY',
      env: 'the printable prescription is drawn in worker threads: this many at once in each process (default: the number of CPUs, os.availableParallelism(), shared among WEB_CONCURRENCY workers, at least 1)',
    },
  )
  @IntSetting(1, 64)
  PDF_RENDERS_MAX?: number;
  @Documented('printable prescriptions waiting for a worker thread; beyond: 503', {
    defaultText: 'twice PDF_RENDERS_MAX',
    env: 'printable prescriptions waiting for a worker (default: twice PDF_RENDERS_MAX); past them the download answers 503 SERVICE_UNAVAILABLE with Retry-After',
  })
  @IntSetting(0, 1000)
  PDF_RENDERS_QUEUE?: number;
}

/** With the sandbox in use the issuer's three default to it (sandbox/mi-argentina.ts). */
export const pacienteSettings = defineSettings(
  'paciente',
  PacienteVariables,
  (v, core) => {
    if (core.nodeEnv === 'production') {
      const missing = (
        ['PACIENTE_JWKS_URL', 'PACIENTE_JWT_ISSUER', 'PACIENTE_JWT_AUDIENCE'] as const
      )
        .filter((name) => v[name] === undefined)
        .map((name) => `${name}: is required when NODE_ENV=production (no default there)`);
      if (missing.length > 0) throw new ConfigError(missing);
    }
    const sandbox = core.sandbox.url && `${core.sandbox.url}/__sandbox/mi-argentina`;
    // One render thread per CPU, the CPUs shared among a cluster's workers.
    const renders =
      v.PDF_RENDERS_MAX ?? Math.max(1, Math.floor(availableParallelism() / core.http.workers));
    return {
      jwksUrl: v.PACIENTE_JWKS_URL ?? (sandbox ? `${sandbox}/jwks.json` : undefined),
      issuer: v.PACIENTE_JWT_ISSUER ?? sandbox ?? undefined,
      audience: v.PACIENTE_JWT_AUDIENCE ?? 'prescription-registry',
      /** Contract §8: `exp − iat` at most this, with 30 s of clock leeway. */
      maxLifetimeSeconds: 300,
      pdfRenders: { max: renders, queue: v.PDF_RENDERS_QUEUE ?? 2 * renders },
      rateLimit: {
        porMinuto: v.PACIENTE_POR_MINUTO ?? 30,
        // A household or a carrier's NAT shares an address: room for several citizens.
        porIpPorMinuto: v.PACIENTE_POR_IP_POR_MINUTO ?? 120,
      },
    };
  },
  {
    title: 'Patient access (Mi Argentina, SPEC 8)',
    warnings: (s) =>
      s.jwksUrl && s.issuer
        ? []
        : [
            "PACIENTE_JWKS_URL / PACIENTE_JWT_ISSUER are not set and the sandbox is not in use: the patient's routes refuse every token (500 UPSTREAM_UNAVAILABLE) until they are.",
          ],
  },
);

export type PacienteSettings = SettingsOf<typeof pacienteSettings>;
