import { IsOptional, IsString } from 'class-validator';
import { Documented } from '../config/setting-docs.js';
import { IntSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class PublicoVariables {
  @Documented('public verification page: views per address and minute', {
    default: 60,
    env: 'views per client address and minute, then 429',
  })
  @IntSetting(1, 1000000)
  VERIFICACION_PUBLICA_POR_MINUTO?: number;
  @Documented(
    "public verification page: the links' signing key (production: required, 32+ chars)",
    {
      defaultText: 'derived from the pepper',
      env: "key of the links' signatures: required in production (32+ random characters, the pepper's rules, and not the pepper); elsewhere unset means derived from API_SECRET_PEPPER. Changing it voids every printed link.",
    },
  )
  @IsOptional()
  @IsString()
  VERIFICACION_PUBLICA_CLAVE?: string;
}

export const publicoSettings = defineSettings(
  'publico',
  PublicoVariables,
  (v) => ({
    porMinuto: v.VERIFICACION_PUBLICA_POR_MINUTO ?? 60,
    clave: v.VERIFICACION_PUBLICA_CLAVE,
  }),
  {
    title: 'The public verification behind the QR (GET /r/{cuir}?f=…)',
    // Keyed as text (its UTF-8 bytes: enlaces-publicos.service.ts); required in production.
    secrets: (v) => [{ name: 'VERIFICACION_PUBLICA_CLAVE', value: v.VERIFICACION_PUBLICA_CLAVE }],
  },
);

export type PublicoSettings = SettingsOf<typeof publicoSettings>;
