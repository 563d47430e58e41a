/**
 * The printable prescription, read back as a person and a scanner would: text through
 * pdftotext, barcodes through a 150 dpi rendering (pdftoppm) decoded by zbarimg. A unit spec
 * (beside the code, jest project "unit"): the renderer is a pure function, so it needs neither
 * the app nor the database the e2e project's global setup creates. Checks that need a missing
 * tool are skipped with a printed line (test/support/pdf-tools.ts); the rest always runs.
 */
import { pdfBarcodes, pdfPageCount, pdfText, withTools } from '../../test/support/pdf-tools.js';
import { renderRecetaPdf } from './receta-pdf.js';
import { ESTADOS_RECETA } from '../recetas/vida/estado-receta.js';
import {
  fechaAr,
  fechaHoraAr,
  jurisdiccionOf,
  type RecetaPdfItem,
  type RecetaPdfView,
} from './receta-pdf-view.js';
import { enlacePublico } from '../publico/enlaces-publicos.service.js';

const CUIR = '00010001020102000000000000000000001234501';
const URL = enlacePublico('https://recetas.example.gob.ar/', Buffer.alloc(32, 7), CUIR);

const view = (overrides: Partial<RecetaPdfView> = {}): RecetaPdfView => ({
  cuir: CUIR,
  fecha_creacion: '2026-11-22T10:30:00-03:00',
  vigencia_desde: '2026-11-22',
  vigencia_hasta: '2026-12-21',
  matricula_profesional: '123456',
  jurisdiccion: jurisdiccionOf('02'),
  profesional_nombre: 'Laura Gómez',
  documento_paciente: '30111222',
  locacion: 'Clínica Ñandú, consultorio 12 — pingüino',
  items: [
    { nombre: 'Ibuprofeno 400 mg comprimidos', cantidad: 2, codigo: '1336421' },
    { nombre: 'Losartán 50 mg', cantidad: 1 },
    { nombre: 'Amoxicilina 500 mg cápsulas', cantidad: 3, codigo: 'AMX-500' },
  ],
  estado_receta: 'VIGENTE',
  anulacion: null,
  content_sha256: '3f5a0c1e9b7d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a0c2e4b6d8f0a',
  verification_url: URL,
  ...overrides,
});

/** Pages counted in the file itself: pdfkit writes page dictionaries uncompressed. */
const rawPageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)!.length;

/** pdftotext output with runs of whitespace made single spaces, so wrapped text still matches. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('renderRecetaPdf', () => {
  it('makes one A4 page with the fonts embedded, the same bytes every time', async () => {
    const pdf = await renderRecetaPdf(view());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(rawPageCount(pdf)).toBe(1);
    const raw = pdf.toString('latin1');
    expect(raw).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(raw).toMatch(/\/FontFile2 \d+ 0 R/); // TrueType programs embedded …
    expect(raw).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier)/); // … no unembedded base font
    expect((await renderRecetaPdf(view())).equals(pdf)).toBe(true);
  });

  it('gives the same bytes when documents are rendered concurrently (the fonts are shared)', async () => {
    const views = [view(), view({ estado_receta: 'VENCIDA', locacion: 'Otra clínica' })];
    const sequential = [await renderRecetaPdf(views[0]), await renderRecetaPdf(views[1])];
    const concurrent = await Promise.all([...views, ...views].map((v) => renderRecetaPdf(v)));
    concurrent.forEach((pdf, i) => expect(pdf.equals(sequential[i % 2])).toBe(true));
  });

  it('prints the CUIR, every field and every item, accents intact', async () => {
    const pdf = await renderRecetaPdf(view());
    await withTools(['pdftotext'], 'text of the printable prescription', async () => {
      const text = flat(await pdfText(pdf));
      for (const expected of [
        CUIR,
        'Receta electrónica',
        'VIGENTE',
        '22/11/2026 10:30 (hora de Argentina)',
        'del 22/11/2026 al 21/12/2026',
        'Laura Gómez',
        '123456',
        '02 Ciudad Autónoma de Buenos Aires',
        'DNI 30111222',
        'Clínica Ñandú, consultorio 12 — pingüino',
        'Ibuprofeno 400 mg comprimidos',
        'Losartán 50 mg',
        'Amoxicilina 500 mg cápsulas',
        '1336421',
        'AMX-500',
        view().content_sha256,
        URL,
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).toMatch(/Losartán 50 mg — 1\b/); // the item, its missing code, its quantity
    });
  });

  it('carries the CUIR as a Code 128 and the verification URL as a QR code, readable at 150 dpi', async () => {
    const pdf = await renderRecetaPdf(view());
    await withTools(['pdftoppm', 'zbarimg'], 'barcodes at 150 dpi', async () => {
      const codes = await pdfBarcodes(pdf, 150);
      expect(codes).toContain(`CODE-128:${CUIR}`);
      expect(codes).toContain(`QR-Code:${URL}`);
    });
  });

  it('marks a cancelled prescription ANULADA, with when and why, barcodes still readable', async () => {
    const motivo = 'Dosis equivocada; se emitirá otra receta con la corrección';
    const pdf = await renderRecetaPdf(
      view({ estado_receta: 'ANULADA', anulacion: { at: '2026-11-23T15:00:00Z', motivo } }),
    );
    expect(rawPageCount(pdf)).toBe(1);
    await withTools(['pdftotext'], 'text of a cancelled prescription', async () => {
      const text = flat(await pdfText(pdf));
      expect(text).toContain('ANULADA el 23/11/2026 12:00 (hora de Argentina)');
      expect(text).toContain(`Motivo: ${motivo}`);
      expect(text).not.toContain('VIGENTE');
    });
    await withTools(['pdftoppm', 'zbarimg'], 'barcodes under the ANULADA mark', async () => {
      expect(await pdfBarcodes(pdf, 150)).toEqual(
        expect.arrayContaining([`CODE-128:${CUIR}`, `QR-Code:${URL}`]),
      );
    });
  });

  const longItems = (nombre: (i: number) => string) =>
    Array.from({ length: 10 }, (_, i) => ({
      nombre: nombre(i + 1).slice(0, 200),
      cantidad: 999,
      codigo: `CODE-${i + 1}-`.padEnd(32, 'X'),
    }));
  const words = (i: number) =>
    `Medicamento ${i}: comprimidos recubiertos de liberación prolongada, `.padEnd(200, 'ñandú ');

  it('prints 10 items with 200-character names in full on one page', async () => {
    const items = longItems(words);
    expect(items.every((i) => i.nombre.length === 200)).toBe(true);
    const pdf = await renderRecetaPdf(view({ items }));
    expect(rawPageCount(pdf)).toBe(1);
    await withTools(['pdfinfo'], 'page count by pdfinfo', async () => {
      expect(await pdfPageCount(pdf)).toBe(1);
    });
    await withTools(['pdftotext'], 'text of 10 long items', async () => {
      const text = flat(await pdfText(pdf));
      for (const item of items) {
        // pdftotext turns a wrapped line into a space: compare word by word.
        expect(text).toContain(flat(item.nombre).trim());
        expect(text).toContain(item.codigo.slice(0, 8));
      }
      expect(text).not.toContain('…');
    });
  });

  /** Ten items as a prescriber writes them, every SPEC 9.2 member filled; three dispensed. */
  const fullItems = (): RecetaPdfItem[] =>
    [
      [
        'Ibupirac 400',
        'ibuprofeno',
        '400 mg',
        'comprimido recubierto',
        'envase x 20 comprimidos recubiertos',
        '1 comprimido cada 8 horas durante 5 días, con las comidas',
        '1336421',
      ],
      [
        'Amoxidal 500',
        'amoxicilina',
        '500 mg',
        'comprimido',
        'envase x 21 comprimidos',
        '1 comprimido cada 8 horas durante 7 días',
        '3861688',
      ],
      [
        'Tafirol',
        'paracetamol',
        '500 mg',
        'comprimido',
        'envase x 20 comprimidos',
        '1 comprimido cada 6 horas si hay fiebre o dolor',
        '3874871',
      ],
      [
        'Lotrial 10',
        'enalapril',
        '10 mg',
        'comprimido',
        'envase x 30 comprimidos',
        '1 comprimido por la mañana',
        '2522848',
      ],
      [
        'Losacor 50',
        'losartán potásico',
        '50 mg',
        'comprimido recubierto',
        'envase x 30 comprimidos recubiertos',
        '1 comprimido por día',
        '2554507',
      ],
      [
        'Rivotril 2',
        'clonazepam',
        '2 mg',
        'comprimido ranurado',
        'envase x 30 comprimidos ranurados',
        'medio comprimido por la noche',
        '4613896',
      ],
      [
        'Omeprazol 20',
        'omeprazol',
        '20 mg',
        'cápsula',
        'envase x 28 cápsulas',
        '1 cápsula en ayunas',
        '1111111',
      ],
      [
        'Metformina 850',
        'metformina clorhidrato',
        '850 mg',
        'comprimido',
        'envase x 60 comprimidos',
        '1 comprimido con almuerzo y cena',
        '2222222',
      ],
      [
        'Atorvastatina 20',
        'atorvastatina',
        '20 mg',
        'comprimido recubierto',
        'envase x 30 comprimidos recubiertos',
        '1 comprimido por la noche',
        '3333333',
      ],
      [
        'Salbutamol aerosol',
        'salbutamol',
        '100 mcg/dosis',
        'aerosol para inhalación',
        'envase x 200 dosis',
        '2 inhalaciones cada 6 horas si hay falta de aire',
        '4444444',
      ],
    ].map(
      ([nombre, dci, concentracion, forma_farmaceutica, presentacion, posologia, codigo], i) => ({
        nombre,
        dci,
        concentracion,
        forma_farmaceutica,
        presentacion,
        posologia,
        codigo,
        cantidad: 2,
        sustituible: i % 3 !== 1,
        dispensa:
          i < 3
            ? {
                cantidad: i === 0 ? 1 : 2,
                farmacia: 'Farmacia Central',
                fecha: '2026-11-23T15:20:00Z',
                codigo: i === 2 ? '1342104' : codigo,
                sustituido: i === 2,
              }
            : null,
      }),
    );
  const content = {
    paciente: {
      nombre: 'Ana María',
      apellido: 'Fernández',
      sexo: 'F',
      fecha_nacimiento: '1985-03-14',
    },
    cobertura: {
      financiador: 'PAMI',
      numero_afiliado: '15-12345678-9/00',
      plan: 'Plan 210',
      codigo_rnos: '500807',
    },
    diagnostico_codigo: 'J02.9',
  };

  it('prints the content of SPEC 9.2: patient, coverage, diagnosis code, each item in full, "1 de 2", pharmacy, substitute, "no sustituir", on one page', async () => {
    const items = fullItems();
    const pdf = await renderRecetaPdf(
      view({ ...content, items, estado_receta: 'DISPENSADA_PARCIAL' }),
    );
    expect(rawPageCount(pdf)).toBe(1);
    await withTools(['pdfinfo'], 'page count by pdfinfo', async () => {
      expect(await pdfPageCount(pdf)).toBe(1);
    });
    await withTools(['pdftotext'], 'text of a fully described prescription', async () => {
      const text = flat(await pdfText(pdf));
      for (const expected of [
        'Ana María Fernández',
        'DNI 30111222',
        'sexo F',
        'nacimiento 14/03/1985',
        'PAMI',
        'Afiliado 15-12345678-9/00',
        'Plan 210',
        'RNOS 500807',
        'Diagnóstico (CIE-10)',
        'J02.9',
        '1 de 2 dispensado',
        '2 de 2 dispensado',
        '0 de 2 dispensado',
        'Farmacia Central',
        'Sustituido por el código 1342104',
      ])
        expect(text).toContain(expected);
      for (const item of items) {
        for (const member of [item.nombre, item.dci, item.concentracion, item.codigo])
          expect(text).toContain(member);
        expect(text).toContain(`Posología: ${item.posologia}`);
      }
      // "No sustituir" exactly where the prescriber forbade it (items 2, 5, 8).
      expect(text.match(/NO SUSTITUIR/g)).toHaveLength(3);
      expect(text).not.toContain('…');
    });
    await withTools(
      ['pdftoppm', 'zbarimg'],
      'barcodes of a fully described prescription',
      async () => {
        expect(await pdfBarcodes(pdf, 150)).toEqual(
          expect.arrayContaining([`CODE-128:${CUIR}`, `QR-Code:${URL}`]),
        );
      },
    );
  });

  it('stays on one page with every field at its longest, cutting only what 6 pt cannot hold', async () => {
    const unbroken = (i: number) => `${i}`.padEnd(200, 'Á');
    const longest = (nombre: (i: number) => string): RecetaPdfItem[] =>
      longItems(nombre).map((item) => ({
        ...item,
        dci: 'd'.repeat(200),
        concentracion: 'c'.repeat(50),
        forma_farmaceutica: 'f'.repeat(50),
        presentacion: 'p'.repeat(100),
        posologia: 'Posología larga '.repeat(19).slice(0, 300),
        sustituible: false,
        dispensa: {
          cantidad: 999,
          farmacia: 'F'.repeat(200),
          fecha: '2026-11-23T15:20:00Z',
          codigo: 'X'.repeat(32),
          sustituido: true,
        },
      }));
    for (const nombre of [words, unbroken]) {
      const pdf = await renderRecetaPdf(
        view({
          paciente: {
            nombre: 'N'.repeat(100),
            apellido: 'A'.repeat(100),
            sexo: 'X',
            fecha_nacimiento: '1900-01-01',
          },
          cobertura: {
            financiador: 'F'.repeat(100),
            numero_afiliado: '9'.repeat(30),
            plan: 'P'.repeat(50),
            codigo_rnos: '123456',
          },
          diagnostico_codigo: 'S72.0012',
          items: longest(nombre),
          locacion: 'L'.repeat(200),
          profesional_nombre: 'N'.repeat(200),
          jurisdiccion: jurisdiccionOf('94'),
          estado_receta: 'ANULADA',
          anulacion: { at: '2026-11-23T15:00:00Z', motivo: 'm'.repeat(200) },
        }),
      );
      expect(rawPageCount(pdf)).toBe(1);
      await withTools(['pdfinfo'], 'page count by pdfinfo', async () => {
        expect(await pdfPageCount(pdf)).toBe(1);
      });
      await withTools(['pdftotext'], 'text of the longest prescription', async () => {
        const text = flat(await pdfText(pdf));
        expect(text).toContain(CUIR);
        expect(text).toContain(view().content_sha256); // the footer was not pushed off
        if (nombre === words) expect(text).toContain('Medicamento 10:'); // the last row is there
        // Cut, the paragraphs take a line each in order while there is room: the name, the
        // NO SUSTITUIR mark and the generic name stay (the dosage goes first, after them).
        expect(text.match(/NO SUSTITUIR/g)).toHaveLength(10);
        expect(text.match(/ d{20,}…/g)).toHaveLength(10);
        expect(text.match(/999 de 999 dispensado/g)).toHaveLength(10);
        expect(text.match(/Sustituido por el código X/g)).toHaveLength(10);
      });
      await withTools(['pdftoppm', 'zbarimg'], 'barcodes of the longest prescription', async () => {
        expect(await pdfBarcodes(pdf, 150)).toEqual(
          expect.arrayContaining([`CODE-128:${CUIR}`, `QR-Code:${URL}`]),
        );
      });
    }
  });

  it('prints each state, and leaves the prescriber out when the registry gave no name', async () => {
    for (const estado of ESTADOS_RECETA) {
      const pdf = await renderRecetaPdf(
        view({
          estado_receta: estado,
          profesional_nombre: null,
          anulacion:
            estado === 'ANULADA' ? { at: '2026-11-23T15:00:00Z', motivo: 'x'.repeat(3) } : null,
        }),
      );
      await withTools(['pdftotext'], `text with estado_receta ${estado}`, async () => {
        const text = flat(await pdfText(pdf));
        expect(text).toContain(
          estado === 'DISPENSADA_PARCIAL' ? 'DISPENSADA PARCIALMENTE' : estado,
        );
        expect(text).not.toContain('Profesional');
        expect(text).toContain('Matrícula');
      });
    }
  });
});

describe('receta PDF view helpers', () => {
  it('formats dates in Argentina time and calendar order', () => {
    expect(fechaHoraAr('2026-11-22T13:30:00Z')).toBe('22/11/2026 10:30');
    expect(fechaHoraAr('2026-01-01T02:59:00Z')).toBe('31/12/2025 23:59');
    expect(fechaAr('2026-12-21')).toBe('21/12/2026');
    expect(fechaAr('not a date')).toBe('not a date');
  });

  it('builds the verification URL and the jurisdiction', () => {
    expect(enlacePublico('https://x.test//', Buffer.alloc(32, 7), CUIR)).toMatch(
      new RegExp(`^https://x\\.test/r/${CUIR}\\?f=[A-Za-z0-9_-]{22}$`),
    );
    expect(jurisdiccionOf('14')).toEqual({ code: '14', name: 'Córdoba' });
    expect(jurisdiccionOf('99')).toEqual({ code: '99', name: '' });
  });
});
