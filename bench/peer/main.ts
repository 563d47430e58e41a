/**
 * The conventional peer (issue 21): registrar and listar written the way NestJS's
 * documentation teaches, on the service's schema — TypeORM entities (entities.ts) with
 * `Repository.save` inside `DataSource.transaction`, a global `ValidationPipe({transform,
 * whitelist})` over class-validator DTOs, `ClassSerializerInterceptor`, a guard looking the
 * API client up, idempotency (SELECT then INSERT of the key in the transaction, 409 on
 * conflict) and the duplicate-CUIR 409, the ministry job through pg-boss's own `send` on the
 * transaction's connection, and the listing with `findAndCount`. Same answers' shape as the
 * service. It is what a team would otherwise write: service/peer is what the service's own
 * design buys. Imports nothing of src/.
 *
 * Env: DATABASE_URL, DATABASE_POOL_SIZE (default 10), QUEUE_SCHEMA (default pgboss),
 * PEER_CREDENTIALS (JSON [{key, secret}]), PEER_AUTH_CACHE_MS (default 5000), PORT.
 */
import 'reflect-metadata';
import { ClassSerializerInterceptor, ValidationPipe } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import { EnvelopeInterceptor, HttpErrorFilter, validationFailed } from './http.js';

/** Whether `recetas` has the validity window yet (contract §7's migration, on another branch now). */
async function schemaHasVigencia(): Promise<boolean> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'recetas' AND column_name = 'vigencia_desde'`,
    );
    return (r.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  process.env.PEER_SCHEMA_VIGENCIA = (await schemaHasVigencia()) ? '1' : '0';
  // The entities read that flag when they load.
  const { PeerModule } = await import('./app.module.js');
  const app = await NestFactory.create<NestExpressApplication>(PeerModule, {
    logger: ['error', 'warn'],
  });
  app.useGlobalPipes(
    new ValidationPipe({ transform: true, whitelist: true, exceptionFactory: validationFailed }),
  );
  app.useGlobalInterceptors(
    new EnvelopeInterceptor(),
    new ClassSerializerInterceptor(app.get(Reflector)),
  );
  app.useGlobalFilters(new HttpErrorFilter());
  app.enableShutdownHooks();
  const server = await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  (server as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;
  process.stdout.write(`peer listening on ${await app.getUrl()}\n`);
}

void main();
