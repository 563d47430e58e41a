import { Injectable } from '@nestjs/common';
import { AuditoriaService } from '../../auditoria/auditoria.service.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { parseCuir } from '../../cuir/cuir.public.js';
import type { IdempotencyClaim } from '../../idempotency/idempotency.public.js';
import { medicamentoDesconocido } from '../../medicamentos/medicamentos.public.js';
import { MedicamentosService } from '../../medicamentos/medicamentos.service.js';
import { ProfesionalService } from '../../profesional/profesional.service.js';
import { faltantesRestringida } from '../contenido/restringida.js';
import type { RecetaRegistradaDto } from './dto/receta-registrada.dto.js';
import type { RegistrarRecetaDto } from './dto/registrar-receta.dto.js';
import { RegistroWriter } from './registro.writer.js';

/** Registration of a prescription (contract §3): its rules; the write is RegistroWriter's. */
@Injectable()
export class RegistroService {
  constructor(
    private readonly profesional: ProfesionalService,
    private readonly writer: RegistroWriter,
    private readonly auditoria: AuditoriaService,
    private readonly medicamentos: MedicamentosService,
  ) {}

  /** Registers the prescription (its event in the same statement); a refusal is logged on its own. */
  async registrar(
    client: AuthenticatedClient,
    dto: RegistrarRecetaDto,
    claim?: IdempotencyClaim,
  ): Promise<RecetaRegistradaDto> {
    try {
      return await this.checkAndWrite(client, dto, claim);
    } catch (err) {
      await this.auditoria.recordRefusal(err, {
        tipo: 'registro',
        cuir: dto.cuir,
        actor: client.id,
      });
      throw err;
    }
  }

  private async checkAndWrite(
    client: AuthenticatedClient,
    dto: RegistrarRecetaDto,
    claim?: IdempotencyClaim,
  ): Promise<RecetaRegistradaDto> {
    const parsed = parseCuir(dto.cuir);
    if (!parsed.ok)
      throw new DomainError('VALIDATION_FAILED', 'Request validation failed', [
        { field: 'cuir', issue: 'must be a valid CUIR' },
      ]);
    const faltantes = faltantesRestringida(dto);
    if (faltantes.length > 0)
      throw new DomainError(
        'VALIDATION_FAILED',
        "A restricted prescription needs its patient and every item's dosage",
        faltantes,
      );
    const jurisdiccion = parsed.components.jurisdiction;
    if (!(await this.profesional.isLicenceEnabled(dto.matricula_profesional, jurisdiccion))) {
      throw new DomainError(
        'PROFESSIONAL_NOT_ENABLED',
        `Licence ${dto.matricula_profesional} is not enabled in jurisdiction ${jurisdiccion}`,
        [
          {
            field: 'matricula_profesional',
            issue: `is not enabled in REFEPS for jurisdiction ${jurisdiccion}`,
          },
        ],
      );
    }
    await this.assertCodigosConocidos(dto);
    return this.writer.write(client.id, dto, claim);
  }

  /** SPEC 9.2: each item's `codigo` must be in the catalogue (unchecked before its first sync). */
  private async assertCodigosConocidos(dto: RegistrarRecetaDto): Promise<void> {
    const codes = dto.items.flatMap((i) => (i.codigo ? [i.codigo] : []));
    if (codes.length === 0) return;
    const problem = medicamentoDesconocido(
      dto.items,
      await this.medicamentos.codigosDesconocidos(codes),
    );
    if (problem) throw problem;
  }
}
