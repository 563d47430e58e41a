import { IsOptional, IsString } from 'class-validator';
import type { ModuleSlice } from '../common/module-slice.js';
import { IntSetting } from '../config/setting-decorators.js';
import { secretProblem } from '../config/production-secret.js';
import { ConfigError, defineSettings, SettingsOf } from '../config/settings.js';

class PublicoVariables {
  /** Views of the public verification page per client address and minute (then 429). */
  @IntSetting(1, 1000000) VERIFICACION_PUBLICA_POR_MINUTO?: number;
  /**
   * Key of the links' signatures: required in production (the pepper's rules); elsewhere,
   * unset, derived from API_SECRET_PEPPER.
   */
  @IsOptional() @IsString() VERIFICACION_PUBLICA_CLAVE?: string;
}

export const publicoSettings = defineSettings('publico', PublicoVariables, (v, core) => {
  const problem = secretProblem(
    'VERIFICACION_PUBLICA_CLAVE',
    v.VERIFICACION_PUBLICA_CLAVE,
    core.nodeEnv,
  );
  if (problem) throw new ConfigError([problem]);
  return {
    porMinuto: v.VERIFICACION_PUBLICA_POR_MINUTO ?? 60,
    clave: v.VERIFICACION_PUBLICA_CLAVE,
  };
});

export type PublicoSettings = SettingsOf<typeof publicoSettings>;

/** The public verification behind the printed QR (contract §9.4). */
export const publicoSlice: ModuleSlice = { name: 'publico', settings: [publicoSettings] };
