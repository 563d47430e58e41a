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
import { Public } from '../auth/scopes.js';
import { RawResponse } from '../common/http/raw-response.decorator.js';
import { ResilienceRegistry } from '../common/resilience/resilience.registry.js';
import { DatabaseHealthIndicator } from './database.health.js';

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
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: the database answers within 1 s' })
  @ApiServiceUnavailableResponse({
    description: 'Not ready; the failing components are in details',
  })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        (): Promise<HealthIndicatorResult> => this.db.ping(),
        // Registries are reported, never fatal (SPEC 6): an open breaker still answers 'up'.
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
