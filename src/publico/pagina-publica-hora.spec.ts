import type { VerificacionPublicaDto } from './dto/verificacion-publica.dto.js';
import { paginaPublica } from './pagina-publica.js';

describe('the public page’s issue time', () => {
  const verificacion = (fecha_creacion: string) =>
    ({
      cuir: '00010001020102000000000000000000001234501',
      estado_receta: 'VIGENTE',
      fecha_creacion,
      vigencia_desde: '2026-11-27',
      vigencia_hasta: '2026-12-26',
      matricula_profesional: '123456',
      jurisdiccion: '02',
      jurisdiccion_nombre: 'Ciudad Autónoma de Buenos Aires',
      profesional_nombre: null,
      items: [],
    }) as unknown as VerificacionPublicaDto;

  it('is Argentina’s time, saying so, as the printed prescription writes it', () => {
    // 01:39 UTC on the 28th is 22:39 of the 27th in Argentina (UTC−3, whatever the server's zone).
    const html = paginaPublica(verificacion('2026-11-28T01:39:00Z'));
    expect(html).toContain('<dt>Emitida</dt><dd>27/11/2026 22:39 (hora de Argentina)</dd>');
  });
});
