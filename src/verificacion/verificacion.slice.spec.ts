import { ConfigError } from '../config/app-config.js';
import { loadAppConfig } from '../slices.js';
import { verificacionSettings } from './verificacion.slice.js';

const problems = (env: Record<string, string>): string[] => {
  try {
    loadAppConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

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
