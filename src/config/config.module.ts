import { DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from './app-config.js';

/** DI token of the validated AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const slices = config.slices.map((slice) => ({
      provide: slice.token,
      useValue: Object.freeze(config.settings(slice)),
    }));
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: Object.freeze(config) }, ...slices],
      exports: [APP_CONFIG, ...slices.map((s) => s.provide)],
    };
  }
}
