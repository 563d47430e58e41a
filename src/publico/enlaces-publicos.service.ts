import { Inject, Injectable } from '@nestjs/common';
import { authSettings, type AuthSettings } from '../auth/auth.public.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { publicBaseUrl } from '../config/core-config.js';
import { InjectSettings } from '../config/settings.js';
import { claveDeEnlaces, enlacePublico, firmaValida } from './enlaces-publicos.js';
import { publicoSettings } from './publico.settings.js';
import type { PublicoSettings } from './publico.settings.js';

/**
 * The one builder of a prescription's public verification link (contract §9.4): the printed
 * QR, the document's text and the ministry's pointer all carry what `url` returns, and the
 * public page accepts only what `valida` confirms.
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
    this.clave = claveDeEnlaces(settings.clave, auth.secretPepper);
    this.base = publicBaseUrl(config);
  }

  url(cuir: string): string {
    return enlacePublico(this.base, this.clave, cuir);
  }

  valida(cuir: string, firma: unknown): boolean {
    return firmaValida(this.clave, cuir, firma);
  }
}
