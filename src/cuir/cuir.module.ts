import { Module } from '@nestjs/common';
import { CuirController } from './cuir.controller.js';
import { CuirService } from './cuir.service.js';
import { IssuedCuirsRepository } from './issued-cuirs.repository.js';

@Module({
  controllers: [CuirController],
  providers: [CuirService, IssuedCuirsRepository],
  exports: [CuirService],
})
export class CuirModule {}
