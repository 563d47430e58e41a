import type { Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import pino from 'pino';
import { ROOT_LOGGER } from '../../src/common/logging/logging.module.js';
import { MetricsService } from '../../src/common/metrics/metrics.service.js';
import { AppConfig } from '../../src/config/app-config.js';
import { APP_CONFIG } from '../../src/config/config.module.js';
import type { SettingsSlice } from '../../src/config/settings.js';
import { loadAppConfig } from '../../src/slices.js';

/**
 * Builds one service with Nest's injector but no app: no database, no HTTP, no queue. Every
 * dependency the service declares must be given — a fake repository, a fake port — except the
 * plumbing every service may ask for (a silent logger, metrics, the configuration and every
 * module's settings, from `env`). A dependency left out fails the build naming it, so a test
 * always says what its service talks to.
 *
 *   const { service, fake } = await buildService(RegistroService, [
 *     fake(ProfesionalService, new FakeProfesional()),
 *     fake(RegistroWriter, writer),
 *   ]);
 */
export async function buildService<T>(
  service: Type<T>,
  fakes: Provider[],
  env: Record<string, string> = {},
): Promise<{ service: T; config: AppConfig }> {
  const config = loadAppConfig({ NODE_ENV: 'test', ...env });
  const plumbing: Provider[] = [
    { provide: ROOT_LOGGER, useValue: pino({ level: 'silent' }) },
    { provide: APP_CONFIG, useValue: config },
    MetricsService,
    ...config.slices.map((slice: SettingsSlice<unknown>) => ({
      provide: slice.token,
      useValue: config.settings(slice),
    })),
  ];
  const module = await Test.createTestingModule({ providers: [service, ...plumbing, ...fakes] })
    .useMocker((token) => {
      const name = typeof token === 'function' ? token.name : String(token);
      throw new Error(`${service.name} needs ${name}: give it a fake in buildService()`);
    })
    .compile();
  return { service: module.get(service), config };
}

/** Provides `instance` wherever `token` (a class) is injected. */
export const fake = <T>(
  token: Type<T> | (abstract new (...args: never[]) => T),
  instance: T,
): Provider => ({
  provide: token,
  useValue: instance,
});
