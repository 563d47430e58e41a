import { Inject, Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { ROOT_LOGGER } from '../logging/logging.module.js';
import { BreakerState, ResilienceOptions, ResiliencePolicy } from './resilience-policy.js';

const STATE_VALUE: Record<BreakerState, number> = {
  closed: 0,
  'half-open': 1,
  open: 2,
  isolated: 3,
};

/** One ResiliencePolicy per external system (a breaker is shared); its states to readiness and /metrics. */
@Injectable()
export class ResilienceRegistry {
  private readonly policies = new Map<string, ResiliencePolicy>();
  private readonly log: Logger;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    metrics: MetricsService,
  ) {
    this.log = logger.child({ component: 'resilience' });
    const policies = this.policies;
    new Gauge({
      name: 'upstream_circuit_state',
      aggregator: 'max',
      help: 'Circuit breaker state per external system (0 closed, 1 half-open, 2 open, 3 isolated)',
      labelNames: ['system'],
      registers: [metrics.registry],
      collect() {
        for (const [system, p] of policies) this.set({ system }, STATE_VALUE[p.state]);
      },
    });
  }

  /** The policy of `system`, created on first use; `overrides` apply only then. */
  policy(system: string, overrides: Partial<ResilienceOptions> = {}): ResiliencePolicy {
    let p = this.policies.get(system);
    if (!p) {
      p = new ResiliencePolicy(system, { ...this.config.resilience, ...overrides }, this.log);
      this.policies.set(system, p);
    }
    return p;
  }

  states(): Record<string, BreakerState> {
    return Object.fromEntries([...this.policies].map(([name, p]) => [name, p.state]));
  }
}
