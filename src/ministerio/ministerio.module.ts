import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { MinistryClient } from './ministry.client.js';
import { MinistryHttpClient } from './ministry.http-client.js';

@Module({
  imports: [HttpModule],
  providers: [{ provide: MinistryClient, useClass: MinistryHttpClient }],
  exports: [MinistryClient],
})
export class MinisterioModule {}
