import { AuditoriaService } from '../../auditoria/auditoria.service.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { RecordingAuditoria } from '../../../test/support/fakes/auditoria.fakes.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { MedicamentosService } from '../../medicamentos/medicamentos.service.js';
import { ProfesionalService } from '../../profesional/profesional.service.js';
import { buildService, fake } from '../../../test/support/service-harness.js';
import type { RecetaRegistradaDto } from './dto/receta-registrada.dto.js';
import type { RegistrarRecetaDto } from './dto/registrar-receta.dto.js';
import { RegistroService } from './registro.service.js';
import { RegistroWriter } from './registro.writer.js';
import type { RegistroRequest } from './registro.sql.js';

const CLIENT: AuthenticatedClient = {
  id: '00000000-0000-4000-8000-00000000000a',
  name: 'a',
  scopes: ['recetas:write'],
  rateLimitPerMinute: 600,
  cuirUniqueness: true,
  cuirRules: false,
  cuirPlatformId: null,
  jurisdicciones: [],
};

const dto = (over: Partial<RegistrarRecetaDto> = {}): RegistrarRecetaDto => ({
  documento_paciente: '30111222',
  matricula_profesional: '123456',
  locacion: 'Consultorio',
  cuir: '00010001020102000000000000000000000000101',
  fecha_creacion: '2026-11-22T10:00:00Z',
  items: [{ nombre: 'Ibuprofeno 400 mg', cantidad: 2 }],
  ...over,
});

/** REFEPS as a table of enabled licences: "matricula@jurisdiccion". */
class FakeProfesional implements Pick<ProfesionalService, 'isLicenceEnabled'> {
  readonly asked: string[] = [];
  constructor(private readonly enabled: Set<string>) {}
  isLicenceEnabled(matricula: string, jurisdiccion: string): Promise<boolean> {
    this.asked.push(`${matricula}@${jurisdiccion}`);
    return Promise.resolve(this.enabled.has(`${matricula}@${jurisdiccion}`));
  }
}

/** The catalogue: every code known but those listed. */
class FakeCatalogo implements Pick<MedicamentosService, 'codigosDesconocidos'> {
  readonly unknown = new Set<string>();
  codigosDesconocidos(codes: readonly string[]): Promise<Set<string>> {
    return Promise.resolve(new Set(codes.filter((c) => this.unknown.has(c))));
  }
}

class RecordingWriter implements Pick<RegistroWriter, 'write'> {
  readonly written: Array<{ clientId: string; request: RegistroRequest }> = [];
  write(clientId: string, request: RegistroRequest): Promise<RecetaRegistradaDto> {
    this.written.push({ clientId, request });
    return Promise.resolve({
      id_transaccion: '1',
      estado: 'PENDING',
      mensaje: 'm',
      cuir: request.cuir,
      id_de_receta: null,
    });
  }
}

async function setup(enabled: string[]) {
  const profesional = new FakeProfesional(new Set(enabled));
  const writer = new RecordingWriter();
  const auditoria = new RecordingAuditoria();
  const catalogo = new FakeCatalogo();
  const { service } = await buildService(RegistroService, [
    fake(MedicamentosService, catalogo as unknown as MedicamentosService),
    fake(ProfesionalService, profesional as unknown as ProfesionalService),
    fake(RegistroWriter, writer as unknown as RegistroWriter),
    fake(AuditoriaService, auditoria as unknown as AuditoriaService),
  ]);
  return { service, profesional, writer, auditoria, catalogo };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
  );

describe('registration rules (contract §3), without the app', () => {
  it('checks the licence in the jurisdiction the CUIR names, then writes for the caller', async () => {
    const s = await setup(['123456@02']);
    await s.service.registrar(CLIENT, dto());
    expect(s.profesional.asked).toEqual(['123456@02']);
    expect(s.writer.written).toEqual([{ clientId: CLIENT.id, request: dto() }]);
  });

  it('refuses a licence not enabled there (422) and writes nothing', async () => {
    const s = await setup(['123456@06']); // enabled, but in another jurisdiction
    expect(await codeOf(s.service.registrar(CLIENT, dto()))).toBe('PROFESSIONAL_NOT_ENABLED');
    expect(s.writer.written).toEqual([]);
    // The refusal is in the event log, with its code (contract §8: refused actions too).
    expect(s.auditoria.recorded).toEqual([
      {
        tipo: 'registro',
        cuir: dto().cuir,
        actor: CLIENT.id,
        resultado: 'PROFESSIONAL_NOT_ENABLED',
      },
    ]);
  });

  it('refuses a structurally invalid CUIR before asking REFEPS', async () => {
    const s = await setup(['123456@02']);
    const cuir = '0001000101' + '0102' + '0'.repeat(25) + '01'; // jurisdiction 01 does not exist
    expect(await codeOf(s.service.registrar(CLIENT, dto({ cuir })))).toBe('VALIDATION_FAILED');
    expect(s.profesional.asked).toEqual([]);
    expect(s.writer.written).toEqual([]);
  });

  it('lets a registry outage through as it came (500 UPSTREAM_UNAVAILABLE), writing nothing', async () => {
    const s = await setup([]);
    s.profesional.isLicenceEnabled = () =>
      Promise.reject(new DomainError('UPSTREAM_UNAVAILABLE', 'REFEPS down'));
    expect(await codeOf(s.service.registrar(CLIENT, dto()))).toBe('UPSTREAM_UNAVAILABLE');
    expect(s.writer.written).toEqual([]);
  });

  it('refuses catalogue codes the catalogue does not hold (422 MEDICAMENTO_DESCONOCIDO), naming each item', async () => {
    const s = await setup(['123456@02']);
    s.catalogo.unknown.add('9999999');
    const items = [
      { nombre: 'Ibuprofeno 400 mg', cantidad: 2, codigo: '1336421' },
      { nombre: 'Inventado', cantidad: 1, codigo: '9999999' },
      { nombre: 'Sin código', cantidad: 1 },
    ];
    const refused = await s.service.registrar(CLIENT, dto({ items })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('MEDICAMENTO_DESCONOCIDO');
    expect((refused as DomainError).details).toEqual([
      { field: 'items[1].codigo', issue: '9999999 is not a code of the medication catalogue' },
    ]);
    expect(s.writer.written).toEqual([]);
    expect(s.auditoria.recorded.map((e) => e.resultado)).toEqual(['MEDICAMENTO_DESCONOCIDO']);
  });
});
