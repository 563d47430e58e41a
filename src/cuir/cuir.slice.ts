import type { ModuleSlice } from '../common/module-slice.js';
import { defineErrorCodes } from '../common/errors/error-codes.js';
import { defineScopes } from '../common/http/access.js';
import { PatternSetting } from '../config/setting-decorators.js';
import { defineSettings, SettingsOf } from '../config/settings.js';
import { IssuedCuirs1763800002000 } from './migrations/1763800002000-IssuedCuirs.js';
import { CuirOwnership1763800006100 } from './migrations/1763800006100-CuirOwnership.js';

export const CUIR_SCOPES = defineScopes({ 'cuir:write': 'generate CUIRs' });

export const CUIR_ERRORS = defineErrorCodes({
  CUIR_ALREADY_ISSUED: 409,
  CUIR_RULES_VIOLATED: 422,
  CUIR_NOT_OWNED: 422,
});

declare module '../common/http/access.js' {
  interface Scopes extends Record<keyof typeof CUIR_SCOPES, true> {}
}
declare module '../common/errors/error-codes.js' {
  interface ErrorCodes extends Record<keyof typeof CUIR_ERRORS, number> {}
}

class CuirVariables {
  /** The default prescribing-platform id, for clients without their own (4 digits). */
  @PatternSetting(/^\d{4}$/, 'must be exactly 4 digits') CUIR_PLATFORM_ID?: string;
  /** This repository's id in every CUIR it issues (4 digits, assigned by the ministry). */
  @PatternSetting(/^\d{4}$/, 'must be exactly 4 digits') CUIR_REPOSITORY_ID?: string;
}

export const cuirSettings = defineSettings('cuir', CuirVariables, (v) => ({
  platformId: v.CUIR_PLATFORM_ID ?? '0001',
  repositoryId: v.CUIR_REPOSITORY_ID ?? '0001',
}));

export type CuirSettings = SettingsOf<typeof cuirSettings>;

/** CUIR generation and its ledger (contract §3). */
export const cuirSlice: ModuleSlice = {
  name: 'cuir',
  scopes: CUIR_SCOPES,
  errors: CUIR_ERRORS,
  settings: [cuirSettings],
  migrations: [IssuedCuirs1763800002000, CuirOwnership1763800006100],
};
