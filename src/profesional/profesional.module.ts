import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { ProfesionalController } from './profesional.controller.js';
import { ProfesionalService } from './profesional.service.js';
import { ProfessionalCache } from './professional-cache.js';
import { ProfessionalRegistryClient } from './professional-registry.client.js';
import { RefepsHttpClient } from './refeps.http-client.js';

@Module({
  imports: [HttpModule],
  controllers: [ProfesionalController],
  providers: [
    ProfesionalService,
    ProfessionalCache,
    { provide: ProfessionalRegistryClient, useClass: RefepsHttpClient },
  ],
  exports: [ProfesionalService],
})
export class ProfesionalModule {}
