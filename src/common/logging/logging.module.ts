import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';

/** DI token of the root pino logger; services take `.child({ component })` of it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger): DynamicModule {
    return {
      module: LoggingModule,
      providers: [{ provide: ROOT_LOGGER, useValue: logger }],
      exports: [ROOT_LOGGER],
    };
  }
}
