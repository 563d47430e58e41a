import { Controller, Get } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorResult,
} from '@nestjs/terminus';
import { DomainError } from '../common/errors/domain-error.js';
import { Public } from '../common/http/access.js';
import { RawResponse } from '../common/http/raw-response.decorator.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { DatabaseHealthIndicator } from './database.health.js';

/** A registry's circuit breaker (ResilienceRegistry.states(): one per external system). */
const BREAKER = {
  type: 'string',
  enum: ['closed', 'open', 'half-open', 'isolated'],
  description: "The system's circuit breaker: `open` while it is failing (reported, never fatal)",
};

/** The readiness report: one member per indicator (the contract check refuses others). */
const INDICATORS = {
  type: 'object',
  additionalProperties: false,
  properties: {
    database: {
      type: 'object',
      required: ['status'],
      additionalProperties: false,
      properties: { status: { type: 'string', enum: ['up', 'down'] } },
    },
    registries: {
      type: 'object',
      required: ['status'],
      additionalProperties: false,
      properties: {
        status: { type: 'string', enum: ['up'] },
        refeps: BREAKER,
        renaper: BREAKER,
        catalogo: BREAKER,
        ministerio: BREAKER,
      },
    },
  },
};

@ApiTags('operations')
@Public()
@RawResponse()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: DatabaseHealthIndicator,
    private readonly resilience: ResilienceRegistry,
  ) {}

  @Get('live')
  @ApiOperation({
    summary: 'Liveness: the process answers',
    description: 'For a process supervisor: 200 as long as the process serves HTTP at all.',
  })
  @ApiOkResponse({
    description: 'The process answers',
    schema: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['ok'] } },
      example: { status: 'ok' },
    },
  })
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  // Documented here: terminus's swagger integration vanished under the test runner.
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOkResponse({
    description: 'Ready: the database answers (each indicator reports `up`)',
    schema: {
      type: 'object',
      required: ['status', 'details'],
      properties: {
        status: { type: 'string', enum: ['ok'] },
        info: INDICATORS,
        error: INDICATORS,
        details: INDICATORS,
      },
      example: {
        status: 'ok',
        info: { database: { status: 'up' }, registries: { status: 'up', refeps: 'closed' } },
        error: {},
        details: { database: { status: 'up' }, registries: { status: 'up', refeps: 'closed' } },
      },
    },
  })
  @ApiOperation({
    summary: 'Readiness: the database answers within 1 s',
    description:
      "For a load balancer: 200 when the database answers within 1 s; the registries' circuit-breaker states are reported, never fatal.",
  })
  @ApiServiceUnavailableResponse({
    description:
      'SERVICE_UNAVAILABLE: not ready; `error.details` names the failing components (error envelope)',
  })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        (): Promise<HealthIndicatorResult> => this.db.ping(),
        // Registries are reported, never fatal (contract §6): an open breaker still answers 'up'.
        (): HealthIndicatorResult => ({
          registries: { status: 'up', ...this.resilience.states() },
        }),
      ]);
    } catch (err) {
      const failing = Object.keys((err as { response?: { error?: object } }).response?.error ?? {});
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        'Service not ready',
        failing.map((field) => ({ field, issue: 'down' })),
        { cause: err },
      );
    }
  }
}
