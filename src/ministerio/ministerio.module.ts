import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { MinisterioClient } from './ministerio.client.js';
import { MinisterioHttpClient } from './ministerio.http-client.js';

@Module({
  imports: [HttpModule],
  providers: [{ provide: MinisterioClient, useClass: MinisterioHttpClient }],
  exports: [MinisterioClient],
})
export class MinisterioModule {}
