import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { PersonaRegistryClient } from './persona-registry.client.js';
import { PersonaController } from './persona.controller.js';
import { PersonaService } from './persona.service.js';
import { RenaperHttpClient } from './renaper.http-client.js';

@Module({
  imports: [HttpModule],
  controllers: [PersonaController],
  providers: [PersonaService, { provide: PersonaRegistryClient, useClass: RenaperHttpClient }],
  exports: [PersonaService],
})
export class PersonaModule {}
