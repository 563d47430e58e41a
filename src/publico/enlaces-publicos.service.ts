import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { authSettings, type AuthSettings } from '../auth/auth.public.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { publicBaseUrl } from '../config/core-config.js';
import { InjectSettings } from '../config/inject-settings.js';
import { publicoSettings, type PublicoSettings } from './publico.settings.js';

/**
 * `firma`: an HMAC of the CUIR under a key only the service holds, cut to 128 bits (22 base64url
 * characters), so a link can be printed and nobody can make one for a CUIR they walked to.
 */
const firmaDe = (clave: Buffer, cuir: string): string =>
  createHmac('sha256', clave).update(`cuir:${cuir}`).digest().subarray(0, 16).toString('base64url');

/** A prescription's public verification link (contract §9.4): `{base}/r/{cuir}?f={firma}`. */
export function enlacePublico(baseUrl: string, clave: Buffer, cuir: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/r/${encodeURIComponent(cuir)}?f=${firmaDe(clave, cuir)}`;
}

/**
 * The one builder of a prescription's public verification link: the printed QR, the document's
 * text and the ministry's pointer all carry what `url` returns, and the public page accepts only
 * what `valida` confirms.
 */
@Injectable()
export class EnlacesPublicos {
  private readonly clave: Buffer;
  private readonly base: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectSettings(authSettings) auth: AuthSettings,
    @InjectSettings(publicoSettings) settings: PublicoSettings,
  ) {
    // VERIFICACION_PUBLICA_CLAVE, else derived from the pepper under a label of its own.
    // Changing either voids every printed link.
    this.clave =
      settings.clave !== undefined
        ? Buffer.from(settings.clave, 'utf8')
        : createHmac('sha256', auth.secretPepper)
            .update('prescription-registry/verificacion-publica/v1')
            .digest();
    this.base = publicBaseUrl(config);
  }

  url(cuir: string): string {
    return enlacePublico(this.base, this.clave, cuir);
  }

  /** Whether `firma` is the CUIR's (constant time; anything malformed is simply not). */
  valida(cuir: string, firma: unknown): boolean {
    if (typeof firma !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(firma)) return false;
    const expected = Buffer.from(firmaDe(this.clave, cuir), 'base64url');
    return timingSafeEqual(Buffer.from(firma, 'base64url'), expected);
  }
}
