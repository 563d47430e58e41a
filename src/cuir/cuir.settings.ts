import { Documented } from '../config/setting-docs.js';
import { PatternSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class CuirVariables {
  @Documented('platform id of clients without their own (`--platform-id`)', {
    default: '0001',
    env: '4 digits, assigned by the ministry: the platform id of API clients that have none of their own (credentials tool: clients create|update --platform-id NNNN)',
  })
  @PatternSetting(/^\d{4}$/, 'must be exactly 4 digits')
  CUIR_PLATFORM_ID?: string;
  @Documented("this repository's id", {
    default: '0001',
    env: '4 digits, assigned by the ministry',
  })
  @PatternSetting(/^\d{4}$/, 'must be exactly 4 digits')
  CUIR_REPOSITORY_ID?: string;
}

export const cuirSettings = defineSettings(
  'cuir',
  CuirVariables,
  (v) => ({
    platformId: v.CUIR_PLATFORM_ID ?? '0001',
    repositoryId: v.CUIR_REPOSITORY_ID ?? '0001',
  }),
  { title: 'CUIR' },
);

export type CuirSettings = SettingsOf<typeof cuirSettings>;
