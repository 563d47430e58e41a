import { contenidoColumnas } from '../contenido/contenido.js';
import { abrir, DatoPacienteIlegible, parseClaves, sellar } from './datos-paciente.js';
import {
  COLUMNAS_PERSONALES,
  personalesDeJson,
  personalesEnClaro,
  personalesJson,
  vacios,
} from './datos-personales.js';

const CUIR = '00010001020102000000000000000000000000101';
const todo = contenidoColumnas({
  paciente: {
    nombre: 'Ana María',
    apellido: 'Fernández',
    sexo: 'F',
    fecha_nacimiento: '1985-03-14',
  },
  cobertura: {
    financiador: 'PAMI',
    numero_afiliado: '15-12345678-9/00',
    codigo_rnos: '500807',
    plan: 'Plan 210',
  },
  diagnostico: { codigo: 'J02.9', descripcion: 'Faringitis aguda, no especificada' },
});

describe("SPEC 9.2's personal members sealed as one value", () => {
  it('seals what identifies the patient; the insurer, its RNOS code and plan stay out', () => {
    expect([...COLUMNAS_PERSONALES].sort()).toEqual(
      [
        'paciente_nombre',
        'paciente_apellido',
        'paciente_sexo',
        'paciente_fecha_nacimiento',
        'cobertura_numero_afiliado',
        'diagnostico_codigo',
        'diagnostico_descripcion',
      ].sort(),
    );
    const json = personalesJson(todo)!;
    for (const clear of ['PAMI', '500807', 'Plan 210']) expect(json).not.toContain(clear);
  });

  it('is a compact JSON of the members present, and reads back to the same columns', () => {
    const json = personalesJson(todo)!;
    expect(json).toBe(
      '{"n":"Ana María","a":"Fernández","s":"F","f":"1985-03-14","na":"15-12345678-9/00","dc":"J02.9","dd":"Faringitis aguda, no especificada"}',
    );
    const back = personalesDeJson(json);
    for (const c of COLUMNAS_PERSONALES) expect(back[c]).toBe(todo[c]);

    // Only the diagnosis's code: only it, the rest null when read.
    const soloCodigo = contenidoColumnas({ diagnostico: { codigo: 'J45' } });
    expect(personalesJson(soloCodigo)).toBe('{"dc":"J45"}');
    expect(personalesDeJson('{"dc":"J45"}')).toEqual({ ...vacios(), diagnostico_codigo: 'J45' });
  });

  it('seals nothing for a prescription without any personal member', () => {
    expect(personalesJson(contenidoColumnas({}))).toBeNull();
    expect(personalesEnClaro(contenidoColumnas({}))).toBe(false);
    expect(personalesEnClaro(todo)).toBe(true);
    expect(personalesEnClaro({ ...vacios(), diagnostico_descripcion: 'x' })).toBe(true);
  });

  it('refuses a shape it does not know rather than guess', () => {
    expect(() => personalesDeJson('[]')).toThrow(/not a JSON object/);
    expect(() => personalesDeJson('{"x":"1"}')).toThrow(/unknown member "x"/);
    expect(() => personalesDeJson('{"n":1}')).toThrow(/unknown member "n" or not a string/);
  });

  it('opens only as the personal value of its own prescription (the additional data)', () => {
    const k = (byte: number) => Buffer.alloc(32, byte).toString('base64');
    const claves = parseClaves(`k1:${k(1)}`).claves!;
    const s = sellar(claves, 'personales_cifrado', CUIR, personalesJson(todo)!);
    expect(s.includes(Buffer.from('Fernández'))).toBe(false);
    expect(abrir(claves, 'personales_cifrado', CUIR, s)).toBe(personalesJson(todo));
    expect(() => abrir(claves, 'documento_paciente', CUIR, s)).toThrow(DatoPacienteIlegible);
    expect(() => abrir(claves, 'personales_cifrado', CUIR.replace(/1$/, '2'), s)).toThrow(
      DatoPacienteIlegible,
    );
  });
});
