import type { ModuleSlice } from '../common/module-slice.js';
import { IsOptional, IsString } from 'class-validator';
import { defineSettings, SettingsOf } from '../config/settings.js';

class MinisterioVariables {
  /** OAuth2 client credentials for the ministry (never logged). */
  @IsOptional() @IsString() MINISTERIO_CLIENT_ID?: string;
  @IsOptional() @IsString() MINISTERIO_CLIENT_SECRET?: string;
}

export const ministerioSettings = defineSettings('ministerio', MinisterioVariables, (v) => ({
  clientId: v.MINISTERIO_CLIENT_ID ?? 'sandbox',
  clientSecret: v.MINISTERIO_CLIENT_SECRET ?? 'sandbox',
}));

export type MinisterioSettings = SettingsOf<typeof ministerioSettings>;

/** The ministry's pointer API: the port and its HTTP adapter (contract §4). */
export const ministerioSlice: ModuleSlice = { name: 'ministerio', settings: [ministerioSettings] };
