import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ProfesionalController } from './profesional.controller.js';
import { ProfesionalService } from './profesional.service.js';
import { ProfesionalRegistryClient } from './profesional-registry.client.js';
import { RefepsHttpClient } from './refeps.http-client.js';

@Module({
  imports: [HttpModule],
  controllers: [ProfesionalController],
  providers: [
    ProfesionalService,
    { provide: ProfesionalRegistryClient, useClass: RefepsHttpClient },
  ],
  exports: [ProfesionalService],
})
export class ProfesionalModule {}
