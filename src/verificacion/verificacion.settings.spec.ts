import { configProblems } from '../../test/support/config-problems.js';
import { loadAppConfig } from '../slices.js';
import { verificacionSettings } from './verificacion.settings.js';

const problems = configProblems;

describe('the verification settings (contract §3)', () => {
  it('allow 20 unknown CUIRs a minute by default, or as set', () => {
    expect(loadAppConfig({}).settings(verificacionSettings)).toEqual({ fallosPorMinuto: 20 });
    const c = loadAppConfig({ VERIFICACION_FALLOS_POR_MINUTO: '3' });
    expect(c.settings(verificacionSettings)).toEqual({ fallosPorMinuto: 3 });
  });

  it.each(['0', '2.5', 'many'])('refuse VERIFICACION_FALLOS_POR_MINUTO=%s, naming it', (value) => {
    const found = problems({ VERIFICACION_FALLOS_POR_MINUTO: value });
    expect(found.length).toBeGreaterThan(0);
    for (const p of found) expect(p).toMatch(/^VERIFICACION_FALLOS_POR_MINUTO: /);
  });
});
