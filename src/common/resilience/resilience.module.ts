import { Global, Module } from '@nestjs/common';
import { ResilienceRegistry } from './resilience.registry.js';

@Global()
@Module({ providers: [ResilienceRegistry], exports: [ResilienceRegistry] })
export class ResilienceModule {}
