import { jest } from '@jest/globals';
import { DomainError } from '../common/errors/domain-error.js';
import { captureLogger, testConfig } from '../../test/support/fake-sisa.js';
import { profesionalSettings } from './profesional.settings.js';
import { ProfesionalService } from './profesional.service.js';
import { Licence, pickLicence, Profesional } from './profesional.js';
import { ProfesionalRegistryClient } from './profesional-registry.client.js';

const licence = (over: Partial<Licence>): Licence => ({
  matricula: '1',
  jurisdiccion: '02',
  profesion: 'Médico',
  especialidades: [],
  habilitado: true,
  refepsId: 'r1',
  ...over,
});

const JUAN: Profesional = {
  documento: '23555666',
  nombre: 'JUAN PABLO',
  apellido: 'RODRÍGUEZ',
  matriculas: [
    licence({ matricula: '33444', jurisdiccion: '50', habilitado: false, refepsId: '7033444' }),
    licence({
      matricula: '45678',
      jurisdiccion: '06',
      refepsId: '7045678',
      especialidades: ['Ortopedia y traumatología', 'Otra'],
    }),
    licence({ matricula: '111222', jurisdiccion: '02', refepsId: '8111222' }),
  ],
};

describe('pickLicence', () => {
  it('without jurisdiction: the first enabled licence, else the first', () => {
    expect(pickLicence(JUAN)?.matricula).toBe('45678');
    const none = { ...JUAN, matriculas: JUAN.matriculas.map((m) => ({ ...m, habilitado: false })) };
    expect(pickLicence(none)?.matricula).toBe('33444');
    expect(pickLicence({ ...JUAN, matriculas: [] })).toBeUndefined();
  });

  it('with jurisdiction: the licence held there, enabled or not; none there → undefined', () => {
    expect(pickLicence(JUAN, '02')?.matricula).toBe('111222');
    expect(pickLicence(JUAN, '50')?.matricula).toBe('33444');
    expect(pickLicence(JUAN, '14')).toBeUndefined();
  });
});

describe('ProfesionalService', () => {
  class FakeRegistry extends ProfesionalRegistryClient {
    byDoc = jest.fn((doc: string) => Promise.resolve(doc === JUAN.documento ? JUAN : null));
    byLic = jest.fn((mat: string, jur: string) =>
      Promise.resolve(
        JUAN.matriculas.some((m) => m.matricula === mat && m.jurisdiccion === jur) ? JUAN : null,
      ),
    );
    findByDocument = (doc: string) => this.byDoc(doc);
    findByLicence = (mat: string, jur: string) => this.byLic(mat, jur);
  }
  let registry: FakeRegistry;
  let service: ProfesionalService;

  beforeEach(() => {
    registry = new FakeRegistry();
    service = new ProfesionalService(
      registry,
      testConfig().settings(profesionalSettings),
      captureLogger().logger,
    );
  });

  it('answers the chosen licence, all refeps ids and the first specialty', async () => {
    expect(await service.verificar({ documento: '23555666' })).toEqual({
      documento: '23555666',
      nombre: 'JUAN PABLO',
      apellido: 'RODRÍGUEZ',
      matricula: '45678',
      refeps_id: '7033444,7045678,8111222',
      jurisdiccion: '06',
      especialidad: 'Ortopedia y traumatología',
      activo: true,
    });
    expect(await service.verificar({ documento: '23555666', jurisdiccion: '50' })).toMatchObject({
      matricula: '33444',
      jurisdiccion: '50',
      especialidad: '',
      activo: false,
    });
  });

  it.each([[{ documento: '99999999' }], [{ documento: '23555666', jurisdiccion: '14' }]])(
    'answers NOT_FOUND for %p',
    async (query) => {
      await expect(service.verificar(query)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    },
  );

  it('caches by document: a second verification does not ask the registry', async () => {
    await service.verificar({ documento: '23555666' });
    await service.verificar({ documento: '23555666', jurisdiccion: '02' });
    expect(registry.byDoc).toHaveBeenCalledTimes(1);
  });

  it('isLicenceEnabled: true only for an enabled licence of that jurisdiction', async () => {
    expect(await service.isLicenceEnabled('45678', '06')).toBe(true);
    expect(await service.isLicenceEnabled('33444', '50')).toBe(false);
    expect(await service.isLicenceEnabled('45678', '02')).toBe(false);
    expect(await service.isLicenceEnabled('45678', '06')).toBe(true);
    expect(registry.byLic).toHaveBeenCalledTimes(3); // the repeat came from the cache
  });

  it('isLicenceEnabled: registry down and nothing cached → UPSTREAM_UNAVAILABLE', async () => {
    registry.byLic.mockRejectedValueOnce(new DomainError('UPSTREAM_UNAVAILABLE', 'down'));
    await expect(service.isLicenceEnabled('45678', '06')).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
    });
  });
});
