import { IsOptional, IsString } from 'class-validator';
import { Documented } from '../config/setting-docs.js';
import { defineSettings, SettingsOf } from '../config/settings.js';

class MinisterioVariables {
  @Documented('ministry OAuth2 client credentials: client id', {
    default: 'sandbox',
    env: 'OAuth2 client credentials for the ministry (never logged): client id',
  })
  @IsOptional()
  @IsString()
  MINISTERIO_CLIENT_ID?: string;
  @Documented('ministry OAuth2 client credentials: client secret', {
    default: 'sandbox',
    env: 'OAuth2 client credentials for the ministry (never logged): client secret',
  })
  @IsOptional()
  @IsString()
  MINISTERIO_CLIENT_SECRET?: string;
}

export const ministerioSettings = defineSettings(
  'ministerio',
  MinisterioVariables,
  (v) => ({
    clientId: v.MINISTERIO_CLIENT_ID ?? 'sandbox',
    clientSecret: v.MINISTERIO_CLIENT_SECRET ?? 'sandbox',
  }),
  { title: "The ministry's pointer API" },
);

export type MinisterioSettings = SettingsOf<typeof ministerioSettings>;
