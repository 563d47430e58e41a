import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CuirController } from './cuir.controller.js';
import { CuirService } from './cuir.service.js';
import { CuirOwnerEntity } from './entities/cuir-owner.entity.js';
import { IssuedCuirEntity } from './entities/issued-cuir.entity.js';
import { IssuedCuirsRepository } from './issued-cuirs.repository.js';

/** CUIR generation, ownership and the issued-CUIR ledger (contract §3). */
@Module({
  imports: [TypeOrmModule.forFeature([IssuedCuirEntity, CuirOwnerEntity])],
  controllers: [CuirController],
  providers: [CuirService, IssuedCuirsRepository],
  exports: [CuirService],
})
export class CuirModule {}
