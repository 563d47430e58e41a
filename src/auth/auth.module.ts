import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiClientEntity } from './api-client.entity.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { ApiClientsService } from './api-clients.service.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';
import { AuthGuard } from './auth.guard.js';
import { AuthService } from './auth.service.js';
import { ClientRateLimitGuard } from './client-rate-limit.guard.js';
import { RateLimiters } from './rate-limiters.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiClientEntity])],
  providers: [
    ApiClientsRepository,
    ApiClientsService,
    AuthService,
    AuthFailureLimiter,
    RateLimiters,
    // Order matters: authenticate first, then count the request against that client.
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: ClientRateLimitGuard },
  ],
  exports: [ApiClientsService, RateLimiters],
})
export class AuthModule {}
