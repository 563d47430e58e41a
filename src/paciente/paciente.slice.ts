import type { ModuleSlice } from '../common/module-slice.js';
import { IsOptional, IsString, Length } from 'class-validator';
import { availableParallelism } from 'node:os';
import { IntSetting, UrlSetting } from '../config/setting-decorators.js';
import { ConfigError, defineSettings, SettingsOf } from '../config/settings.js';

/** The sandbox plays Mi Argentina at these paths (sandbox/mi-argentina.ts). */
const SANDBOX_ISSUER_PATH = '/__sandbox/mi-argentina';
export const SANDBOX_AUDIENCE = 'prescription-registry';

class PacienteVariables {
  /** Mi Argentina's key set (JWKS) the citizens' tokens are signed with. */
  @UrlSetting() PACIENTE_JWKS_URL?: string;
  @IsOptional() @IsString() @Length(1, 500) PACIENTE_JWT_ISSUER?: string;
  @IsOptional() @IsString() @Length(1, 500) PACIENTE_JWT_AUDIENCE?: string;
  /** Documents rendered at once (worker threads). */
  @IntSetting(1, 64) PDF_RENDERS_MAX?: number;
  /** Documents that may wait for a worker; beyond them 503. */
  @IntSetting(0, 1000) PDF_RENDERS_QUEUE?: number;
  /** Requests per citizen (the token's CUIL) and minute on the patient routes. */
  @IntSetting(1, 100000) PACIENTE_POR_MINUTO?: number;
  /** Requests per client address and minute on the patient routes, bad tokens included. */
  @IntSetting(1, 1000000) PACIENTE_POR_IP_POR_MINUTO?: number;
}

/**
 * The citizen token's issuer (contract §8). With the sandbox in use the three default to it; in
 * production each must be set (the sandbox is never the issuer there).
 */
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
    const sandbox = core.sandbox.url && `${core.sandbox.url}${SANDBOX_ISSUER_PATH}`;
    const renders = v.PDF_RENDERS_MAX ?? availableParallelism();
    return {
      jwksUrl: v.PACIENTE_JWKS_URL ?? (sandbox ? `${sandbox}/jwks.json` : undefined),
      issuer: v.PACIENTE_JWT_ISSUER ?? sandbox ?? undefined,
      audience: v.PACIENTE_JWT_AUDIENCE ?? SANDBOX_AUDIENCE,
      /** Contract §8: `exp − iat` at most this, with 30 s of clock leeway. */
      maxLifetimeSeconds: 300,
      /** The printable prescription's worker threads (one per CPU) and its short queue. */
      pdfRenders: { max: renders, queue: v.PDF_RENDERS_QUEUE ?? 2 * renders },
      rateLimit: {
        porMinuto: v.PACIENTE_POR_MINUTO ?? 30,
        // A household or a carrier's NAT shares an address: room for several citizens.
        porIpPorMinuto: v.PACIENTE_POR_IP_POR_MINUTO ?? 120,
      },
    };
  },
  {
    warnings: (s) =>
      s.jwksUrl && s.issuer
        ? []
        : [
            "PACIENTE_JWKS_URL / PACIENTE_JWT_ISSUER are not set and the sandbox is not in use: the patient's routes refuse every token (500 UPSTREAM_UNAVAILABLE) until they are.",
          ],
  },
);

export type PacienteSettings = SettingsOf<typeof pacienteSettings>;

/** The patient's access by citizen token and the printable prescription (contract §8). */
export const pacienteSlice: ModuleSlice = { name: 'paciente', settings: [pacienteSettings] };
