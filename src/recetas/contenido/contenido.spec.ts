import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json.js';
import type { RecetaEntity } from '../entities/receta.entity.js';
import { recetaContentHash } from '../receta-content-hash.js';
import {
  AFILIADO_PATTERN,
  CALENDAR_DATE_PATTERN,
  CIE10_PATTERN,
  RNOS_PATTERN,
} from './contenido-patterns.js';
import {
  coberturaDe,
  contenidoColumnas,
  contenidoVisible,
  diagnosticoDe,
  itemContenido,
  itemGuardado,
  pacienteDe,
} from './contenido.js';
import { nacimientoProblem } from './dto/contenido.dto.js';

const re = (pattern: string) => new RegExp(pattern, 'u');

describe('the content patterns (SPEC 9.2)', () => {
  it('ICD-10: a letter but U, two digits, optionally a dot and 1–4 digits or capitals', () => {
    for (const ok of ['J02', 'J02.9', 'A00.0', 'Z99.89', 'E11.65', 'S72.0012', 'V01.X'])
      expect(re(CIE10_PATTERN).test(ok)).toBe(true);
    for (const bad of ['U07.1', 'j02.9', 'J2', 'J02.', 'J02.12345', 'J029', ' J02', 'J02.9a'])
      expect(re(CIE10_PATTERN).test(bad)).toBe(false);
  });

  it('member numbers, RNOS codes and calendar dates', () => {
    expect(re(AFILIADO_PATTERN).test('15-12345678-9/00')).toBe(true);
    expect(re(AFILIADO_PATTERN).test('1'.repeat(31))).toBe(false);
    expect(re(AFILIADO_PATTERN).test('15 123')).toBe(false);
    expect(re(RNOS_PATTERN).test('500807')).toBe(true);
    expect(re(RNOS_PATTERN).test('50080')).toBe(false);
    expect(re(CALENDAR_DATE_PATTERN).test('1985-03-14')).toBe(true);
    expect(re(CALENDAR_DATE_PATTERN).test('1985-3-14')).toBe(false);
  });

  it('a birth date: a real date from 1900, not after today in Argentina', () => {
    const now = new Date('2026-11-26T02:00:00Z'); // still the 25th in Argentina
    expect(nacimientoProblem('1985-03-14', now)).toBeNull();
    expect(nacimientoProblem('1900-01-01', now)).toBeNull();
    expect(nacimientoProblem('2026-11-25', now)).toBeNull();
    expect(nacimientoProblem('2026-11-26', now)).toMatch(/future/);
    expect(nacimientoProblem('1899-12-31', now)).toMatch(/1900-01-01/);
    expect(nacimientoProblem('2026-02-30', now)).toMatch(/calendar date/);
    expect(nacimientoProblem(19850314, now)).toMatch(/calendar date/);
  });
});

describe('stored and shown content', () => {
  it('stores an item without new members exactly as before them, and says sustituible in views', () => {
    expect(itemGuardado({ nombre: 'Ibuprofeno', cantidad: 2, codigo: '1336421' })).toEqual({
      nombre: 'Ibuprofeno',
      cantidad: 2,
      codigo: '1336421',
    });
    expect(itemGuardado({ nombre: 'X', cantidad: 1, sustituible: true })).toEqual({
      nombre: 'X',
      cantidad: 1,
    });
    expect(
      itemGuardado({ nombre: 'X', cantidad: 1, dci: 'ibuprofeno', sustituible: false }),
    ).toEqual({ nombre: 'X', cantidad: 1, dci: 'ibuprofeno', sustituible: false });
    expect(itemContenido({ nombre: 'X', cantidad: 1 })).toEqual({
      nombre: 'X',
      cantidad: 1,
      sustituible: true,
    });
  });

  it('maps the objects to columns and back, absent optional members left out', () => {
    const paciente = {
      nombre: 'Ana',
      apellido: 'Fernández',
      sexo: 'F' as const,
      fecha_nacimiento: '1985-03-14',
    };
    const cobertura = { financiador: 'PAMI', numero_afiliado: '15-12345678-9/00' };
    const diagnostico = { codigo: 'J02.9', descripcion: 'Faringitis aguda' };
    const cols = contenidoColumnas({ paciente, cobertura, diagnostico });
    expect(pacienteDe(cols)).toEqual(paciente);
    expect(coberturaDe(cols)).toEqual(cobertura);
    expect(diagnosticoDe(cols)).toEqual(diagnostico);
    expect(contenidoVisible(cols, ['cobertura'])).toEqual({ cobertura });
    expect(
      contenidoVisible(contenidoColumnas({}), ['paciente', 'cobertura', 'diagnostico']),
    ).toEqual({});
  });
});

describe('content_sha256', () => {
  const row = (over: Partial<RecetaEntity> = {}) =>
    ({
      cuir: '00010001020102000000000000000000000000101',
      fecha_creacion: new Date('2026-11-22T13:00:00Z'),
      matricula_profesional: '123456',
      refeps_id: null,
      locacion: 'Consultorio',
      id_de_receta: 'RX-1',
      nombre_medicamento: null,
      items: [{ nombre: 'Ibuprofeno 400 mg', cantidad: 2, codigo: '1336421' }],
      documento_paciente: '30111222',
      vigencia_desde: '2026-11-22',
      vigencia_hasta: '2026-12-21',
      content_salt: null,
      ...contenidoColumnas({}),
      ...over,
    }) as RecetaEntity;

  it('keeps the hash of a prescription registered before the content members (no salt)', () => {
    const r = row();
    // The formula as it was before SPEC 9.2, written out.
    const before = createHash('sha256')
      .update(
        canonicalJson({
          cuir: r.cuir,
          fecha_creacion: r.fecha_creacion.toISOString(),
          matricula_profesional: r.matricula_profesional,
          refeps_id: r.refeps_id,
          locacion: r.locacion,
          id_de_receta: r.id_de_receta,
          nombre_medicamento: r.nombre_medicamento,
          items: r.items,
        }),
      )
      .digest('hex');
    expect(recetaContentHash(r)).toBe(before);
  });

  it('covers every member, the window and the patient once salted, and reveals nothing hidden', () => {
    const salt = Buffer.alloc(16, 7);
    const base = row({ content_salt: salt });
    const h = recetaContentHash(base);
    expect(h).not.toBe(recetaContentHash(row()));
    const changed: Array<Partial<RecetaEntity>> = [
      { vigencia_hasta: '2026-12-22' },
      { documento_paciente: '30111223' },
      { items: [{ ...base.items[0], dci: 'ibuprofeno' }] },
      { items: [{ ...base.items[0], sustituible: false }] },
      { items: [{ ...base.items[0], posologia: '1 cada 8 h' }] },
      contenidoColumnas({ diagnostico: { codigo: 'J02.9' } }),
      contenidoColumnas({ cobertura: { financiador: 'PAMI', numero_afiliado: '1' } }),
      contenidoColumnas({
        paciente: { nombre: 'A', apellido: 'B', sexo: 'X', fecha_nacimiento: '1990-01-01' },
      }),
      { content_salt: Buffer.alloc(16, 8) },
    ];
    for (const over of changed) expect(recetaContentHash({ ...base, ...over })).not.toBe(h);
    // sustituible stated true is the default: the same content.
    expect(recetaContentHash({ ...base, items: [{ ...base.items[0], sustituible: true }] })).toBe(
      h,
    );
  });
});
