import {
  abrir,
  claveDe,
  DatoPacienteIlegible,
  documentoConSal,
  documentoYSal,
  indiceDocumento,
  parseClaves,
  sellar,
} from './datos-paciente.js';

const k = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const CUIR = '00010001020102000000000000000000000000101';

describe('patient data sealed at rest', () => {
  const claves = parseClaves(`k2:${k(2)},k1:${k(1)}`).claves!;

  it('seals under the first key, names it, and opens under any listed key', () => {
    const s = sellar(claves, 'documento_paciente', CUIR, '30111222');
    expect(claveDe(s)).toBe('k2');
    expect(s.includes(Buffer.from('30111222'))).toBe(false);
    expect(abrir(claves, 'documento_paciente', CUIR, s)).toBe('30111222');
    const old = sellar(parseClaves(`k1:${k(1)}`).claves!, 'documento_paciente', CUIR, '30111222');
    expect(abrir(claves, 'documento_paciente', CUIR, old)).toBe('30111222');
    // A fresh IV each time: the same DNI seals differently.
    expect(sellar(claves, 'documento_paciente', CUIR, '30111222').equals(s)).toBe(false);
  });

  it('fails loudly for a key not held, a wrong key, another row or altered bytes', () => {
    const s = sellar(claves, 'documento_paciente', CUIR, '30111222');
    expect(() => abrir(parseClaves(`k1:${k(1)}`).claves!, 'documento_paciente', CUIR, s)).toThrow(
      /key "k2", which PATIENT_DATA_KEYS does not hold/,
    );
    expect(() => abrir(parseClaves(`k2:${k(9)}`).claves!, 'documento_paciente', CUIR, s)).toThrow(
      DatoPacienteIlegible,
    );
    expect(() => abrir(claves, 'documento_paciente', CUIR.replace(/1$/, '2'), s)).toThrow(
      DatoPacienteIlegible,
    );
    const altered = Buffer.from(s);
    altered[altered.length - 1] ^= 1;
    expect(() => abrir(claves, 'documento_paciente', CUIR, altered)).toThrow(DatoPacienteIlegible);
  });

  it("seals the content hash's salt inside the document's value, and reads a value without one", () => {
    const sal = Buffer.alloc(16, 0xab);
    const plano = documentoConSal('30111222', sal);
    const s = sellar(claves, 'documento_paciente', CUIR, plano);
    expect(s.includes(sal)).toBe(false);
    expect(documentoYSal(abrir(claves, 'documento_paciente', CUIR, s))).toEqual({
      documento: '30111222',
      sal,
    });
    // Sealed before SPEC 11.2: the DNI alone.
    expect(documentoYSal('30111222')).toEqual({ documento: '30111222', sal: null });
    expect(documentoConSal('30111222', null)).toBe('30111222');
  });

  it('indexes a DNI by a keyed HMAC: stable, dots ignored, key-dependent', () => {
    const a = indiceDocumento(Buffer.alloc(32, 1), '30111222');
    expect(a).toHaveLength(16);
    expect(indiceDocumento(Buffer.alloc(32, 1), '30.111.222')).toEqual(a);
    expect(indiceDocumento(Buffer.alloc(32, 2), '30111222')).not.toEqual(a);
  });

  it('parses PATIENT_DATA_KEYS, naming what is wrong and never a key', () => {
    expect(parseClaves(`a:${k(1)}`).claves?.actual).toBe('a');
    expect(parseClaves('a:short').problems).toEqual(['key a: must be 32 random bytes in base64']);
    expect(parseClaves(`${k(1)}`).problems[0]).toMatch(/<key id>:<base64 key>/);
    expect(parseClaves(`a:${k(1)},a:${k(2)}`).problems).toEqual(['key a: listed twice']);
  });
});
