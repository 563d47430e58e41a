import { Injectable } from '@nestjs/common';
import { AuditoriaService } from '../../auditoria/auditoria.service.js';
import { CuirService } from '../../cuir/cuir.service.js';
import { isUniqueViolation } from '../../common/database-errors.js';
import { randomBytesPooled } from '../../common/crypto/random-pool.js';
import { DomainError } from '../../common/errors/domain-error.js';
import {
  type IdempotencyClaim,
  IdempotencyKeyTaken,
} from '../../idempotency/idempotency.public.js';
import { InjectSettings } from '../../config/inject-settings.js';
import { JobQueue } from '../../queue/job-queue.js';
import { CifradoPaciente } from '../cifrado/cifrado-paciente.js';
import { contenidoColumnas } from '../contenido/contenido.js';
import { MinisterioDeliveryJob } from '../notificacion/ministerio-delivery.job.js';
import { firstDeliveryJobData } from '../notificacion/ministerio-delivery.sql.js';
import { CONTENT_SALT_BYTES } from '../receta-content-hash.js';
import { RecetasRepository } from '../recetas.repository.js';
import { recetasSettings, type RecetasSettings } from '../recetas.settings.js';
import { vigenciaDe } from '../vida/vigencia.js';
import type { RecetaRegistradaDto } from './dto/receta-registrada.dto.js';
import {
  CUIR_UNIQUE_INDEX,
  insertRegistroSql,
  pendingAnswer,
  RegistroRequest,
} from './registro.sql.js';

/**
 * The registration's write, the measured hot path: the prescription, its history, ministry job,
 * event and (with an Idempotency-Key) the key and its stored answer, in ONE statement.
 */
@Injectable()
export class RegistroWriter {
  constructor(
    private readonly recetas: RecetasRepository,
    private readonly queue: JobQueue,
    private readonly auditoria: AuditoriaService,
    private readonly cuir: CuirService,
    private readonly cifrado: CifradoPaciente,
    @InjectSettings(recetasSettings) private readonly settings: RecetasSettings,
  ) {}

  async write(
    clientId: string,
    request: RegistroRequest,
    claim?: IdempotencyClaim,
  ): Promise<RecetaRegistradaDto> {
    const answer = (id: string): RecetaRegistradaDto => ({
      id_transaccion: id,
      ...pendingAnswer(request),
    });
    // The CUIR's type (digits 11-12) sets the window's length; the request is validated already.
    const vigencia = vigenciaDe(
      new Date(request.fecha_creacion),
      request.cuir.slice(10, 12),
      request.fecha_inicio_vigencia,
      this.settings.vigenciaDias,
    );
    // A CUIR not issued to this client: the guard stops it before the duplicate check (contract §3).
    const owner = this.cuir.notIssuedTo(clientId, request.cuir);
    const statement = insertRegistroSql(
      clientId,
      request,
      {
        ...this.cifrado.sellarDocumento(
          request.cuir,
          request.documento_paciente,
          randomBytesPooled(CONTENT_SALT_BYTES),
        ),
        personales_cifrado: this.cifrado.sellarPersonales(request.cuir, contenidoColumnas(request)),
      },
      vigencia,
      claim?.key ?? null,
      [
        this.queue.jobInStatement(MinisterioDeliveryJob, firstDeliveryJobData),
        this.auditoria.eventInStatement({
          tipo: 'registro',
          cuir: request.cuir,
          actor: clientId,
          resultado: 'ok',
        }),
      ],
      claim?.settleWith(answer),
      owner.guard,
    );
    let written: { id_transaccion: string | null; blocked: boolean };
    try {
      written = await this.recetas.insertRegistro(statement);
    } catch (err) {
      if (!isUniqueViolation(err, CUIR_UNIQUE_INDEX)) throw err;
      return this.afterDuplicate(clientId, request, claim?.key ?? null);
    }
    if (written.blocked) throw owner.refusal();
    if (written.id_transaccion === null) throw new IdempotencyKeyTaken();
    claim?.markSettled();
    return answer(written.id_transaccion);
  }

  /**
   * The CUIR is registered already: the same client with the same Idempotency-Key (its stored
   * answer expired) gets the first answer again; anyone else, 409. Without a key the row is not
   * even read.
   */
  private async afterDuplicate(
    clientId: string,
    request: RegistroRequest,
    key: string | null,
  ): Promise<RecetaRegistradaDto> {
    const existing = key === null ? null : await this.recetas.findByCuir(request.cuir);
    if (existing && existing.client_id === clientId && existing.idempotency_key === key)
      return { id_transaccion: existing.id_transaccion, ...pendingAnswer(existing) };
    throw new DomainError('CUIR_ALREADY_REGISTERED', 'This CUIR is already registered');
  }
}
