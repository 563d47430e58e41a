import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobQueue } from './job-queue.js';

/** The job queue; any module's `@QueueJob()` providers are found and worked (see queue-job.ts). */
@Global()
@Module({ imports: [DiscoveryModule], providers: [JobQueue], exports: [JobQueue] })
export class QueueModule {}
