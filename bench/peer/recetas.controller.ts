import { Body, Controller, Get, Headers, Post, Query, Req, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type { DataSource } from 'typeorm';
import type { AuthedRequest } from './auth.guard.js';
import { ListadoDto, ListarRecetasQuery, RegistrarRecetaDto } from './dto.js';
import { ApiError, Public, RequireScope } from './http.js';
import { RecetasService } from './recetas.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Controller('v1/recetas')
export class RecetasController {
  constructor(private readonly recetas: RecetasService) {}

  @Post('registrar')
  @RequireScope('recetas:write')
  async registrar(
    @Req() req: AuthedRequest,
    @Res({ passthrough: true }) res: Response,
    @Body() dto: RegistrarRecetaDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<unknown> {
    if (key !== undefined && !UUID.test(key))
      throw new ApiError(400, 'VALIDATION_FAILED', 'Idempotency-Key must be a UUID');
    const r = await this.recetas.register(req.client.id, dto, key?.toLowerCase());
    res.status(r.status);
    if (r.replayed) res.setHeader('Idempotent-Replayed', 'true');
    return r.data;
  }

  @Get('listar')
  @RequireScope('recetas:read')
  listar(@Req() req: AuthedRequest, @Query() q: ListarRecetasQuery): Promise<ListadoDto> {
    return this.recetas.list(req.client.id, q);
  }
}

@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('ready')
  @Public()
  async ready(): Promise<{ status: string }> {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok' };
  }
}
