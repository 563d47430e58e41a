import { configProblems } from '../../test/support/config-problems.js';
import { recetasSettings } from '../recetas/recetas.settings.js';
import { loadAppConfig } from '../slices.js';
import { dispensasSettings } from './dispensas.settings.js';

const problems = configProblems;

describe("the prescription's life settings (contract §7)", () => {
  it('default to 10 minutes (capped at 30), 24 hours, 30 and 60 days', () => {
    const c = loadAppConfig({});
    expect(c.settings(dispensasSettings)).toEqual({
      reservaMinutos: 10,
      reservaMaxMinutos: 30,
      reversionHoras: 24,
    });
    expect(c.settings(recetasSettings).vigenciaDias).toEqual({ medicamentos: 30, otras: 60 });
  });

  it('take decimals for the reservation and reversal windows (short ones for tests)', () => {
    const c = loadAppConfig({
      DISPENSA_RESERVA_MINUTOS: '0.05',
      DISPENSA_RESERVA_MAX_MINUTOS: '0.2',
      DISPENSA_REVERSION_HORAS: '1.5',
    });
    expect(c.settings(dispensasSettings)).toEqual({
      reservaMinutos: 0.05,
      reservaMaxMinutos: 0.2,
      reversionHoras: 1.5,
    });
  });

  it('refuses a cap shorter than one reservation, naming the cap', () => {
    expect(problems({ DISPENSA_RESERVA_MINUTOS: '10', DISPENSA_RESERVA_MAX_MINUTOS: '5' })).toEqual(
      [expect.stringMatching(/^DISPENSA_RESERVA_MAX_MINUTOS: must be at least/)],
    );
    expect(problems({ DISPENSA_RESERVA_MINUTOS: '45' })).toEqual([
      expect.stringMatching(/^DISPENSA_RESERVA_MAX_MINUTOS: /),
    ]);
  });

  it.each([
    ['DISPENSA_RESERVA_MINUTOS', '0'],
    ['DISPENSA_RESERVA_MINUTOS', 'ten'],
    ['DISPENSA_RESERVA_MINUTOS', '1441'],
    ['DISPENSA_RESERVA_MAX_MINUTOS', '0'],
    ['DISPENSA_RESERVA_MAX_MINUTOS', 'half'],
    ['DISPENSA_REVERSION_HORAS', '-1'],
    ['DISPENSA_REVERSION_HORAS', '1e3'],
    ['VIGENCIA_DIAS_MEDICAMENTOS', '0'],
    ['VIGENCIA_DIAS_OTRAS', '366'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(problems({ [name]: value })).toEqual([expect.stringMatching(new RegExp(`^${name}: `))]);
  });
});
