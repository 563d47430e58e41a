/**
 * The framework floor: baseline-core.ts (the same SQL and answers as the bare baseline) served
 * by the stack the service is built on, NestJS on @nestjs/platform-express (Express 5 and its
 * JSON body parser), with nothing of the service's own: no middleware, guard, pipe,
 * interceptor, filter or logger. floor/baseline is the price of the mandated HTTP stack alone;
 * service/floor is the price of what the service adds on top (authentication, rate limits,
 * validation, idempotency rules, the envelope, logging, metrics, TypeORM's query runner).
 *
 * Env: those of baseline-core.ts, and PORT.
 */
import 'reflect-metadata';
import { Controller, Get, Headers, Module, Post, Query, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { type Answer, failure, list, pool, register } from './baseline-core.js';
import type { RegistroRequest } from '../src/recetas/registro/registro.sql.js';

/** Answers as a Nest handler does: the status on the response, the body as the return value. */
function answer(res: Response, a: Answer): unknown {
  res.status(a.status);
  return a.body;
}

@Controller()
class FloorController {
  @Get('health/ready')
  ready(): unknown {
    return { status: 'ok' };
  }

  @Post('v1/recetas/registrar')
  async registrar(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Headers('x-bench-client') client: string | undefined,
    @Headers('idempotency-key') key: string | undefined,
  ): Promise<unknown> {
    if (!client) return answer(res, failure(401, 'UNAUTHENTICATED'));
    const dto = req.body as RegistroRequest;
    return answer(res, await register(client, dto, req.path, key));
  }

  @Get('v1/recetas/listar')
  async listar(
    @Res({ passthrough: true }) res: Response,
    @Headers('x-bench-client') client: string | undefined,
    @Query() query: Record<string, string | undefined>,
  ): Promise<unknown> {
    if (!client) return answer(res, failure(401, 'UNAUTHENTICATED'));
    return answer(res, await list(client, (name) => query[name]));
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  app.set('etag', false);
  app.set('query parser', 'simple');
  const server = await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  (server as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;
  process.stdout.write(`floor listening on ${await app.getUrl()}\n`);
  const stop = () => void app.close().finally(() => void pool.end().finally(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
