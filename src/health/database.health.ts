import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

const PING_TIMEOUT_MS = 1000;

/** `SELECT 1` raced against a short timeout: a pool that cannot connect must not hang the probe. */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async ping(key = 'database'): Promise<HealthIndicatorResult> {
    const session = this.indicators.check(key);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.db.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS);
        }),
      ]);
      return session.up();
    } catch (err) {
      return session.down({
        message:
          err instanceof Error && err.message === 'timeout'
            ? 'no answer within 1 s'
            : 'unreachable',
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
