import {
  INDEC_JURISDICTIONS,
  INDEC_JURISDICTION_CODES,
  isIndecJurisdiction,
  jurisdictionCodeFromName,
  jurisdictionName,
} from './indec-jurisdictions.js';

describe('INDEC jurisdictions', () => {
  it('lists the 24 codes in code order', () => {
    // prettier-ignore
    expect(INDEC_JURISDICTION_CODES).toEqual([
      '02', '06', '10', '14', '18', '22', '26', '30', '34', '38', '42', '46',
      '50', '54', '58', '62', '66', '70', '74', '78', '82', '86', '90', '94',
    ]);
    expect(INDEC_JURISDICTIONS).toHaveLength(24);
  });

  it('is immutable', () => {
    expect(Object.isFrozen(INDEC_JURISDICTION_CODES)).toBe(true);
    expect(Object.isFrozen(INDEC_JURISDICTIONS)).toBe(true);
  });

  describe('isIndecJurisdiction', () => {
    it.each(INDEC_JURISDICTION_CODES.map((c) => [c]))('accepts %s', (code) => {
      expect(isIndecJurisdiction(code)).toBe(true);
    });

    it.each([
      ['00'],
      ['01'],
      ['03'],
      ['04'],
      ['98'],
      ['99'],
      ['2'],
      ['002'],
      [' 02'],
      ['02 '],
      ['٠٢'],
      [''],
      ['CABA'],
      ['toString'],
      ['__proto__'],
    ])('rejects %p', (code) => {
      expect(isIndecJurisdiction(code)).toBe(false);
    });

    it('rejects non-strings at run time', () => {
      expect(isIndecJurisdiction(2 as unknown as string)).toBe(false);
      expect(isIndecJurisdiction(undefined as unknown as string)).toBe(false);
    });
  });

  describe('jurisdictionName', () => {
    it.each([
      ['02', 'Ciudad Autónoma de Buenos Aires'],
      ['06', 'Buenos Aires'],
      ['10', 'Catamarca'],
      ['14', 'Córdoba'],
      ['18', 'Corrientes'],
      ['22', 'Chaco'],
      ['26', 'Chubut'],
      ['30', 'Entre Ríos'],
      ['34', 'Formosa'],
      ['38', 'Jujuy'],
      ['42', 'La Pampa'],
      ['46', 'La Rioja'],
      ['50', 'Mendoza'],
      ['54', 'Misiones'],
      ['58', 'Neuquén'],
      ['62', 'Río Negro'],
      ['66', 'Salta'],
      ['70', 'San Juan'],
      ['74', 'San Luis'],
      ['78', 'Santa Cruz'],
      ['82', 'Santa Fe'],
      ['86', 'Santiago del Estero'],
      ['90', 'Tucumán'],
      ['94', 'Tierra del Fuego, Antártida e Islas del Atlántico Sur'],
    ])('%s → %s', (code, name) => {
      expect(jurisdictionName(code)).toBe(name);
    });

    it.each([['03'], ['2'], [''], ['constructor']])('%p → undefined', (code) => {
      expect(jurisdictionName(code)).toBeUndefined();
    });
  });

  describe('jurisdictionCodeFromName', () => {
    it('maps every official name back to its code', () => {
      for (const { code, name } of INDEC_JURISDICTIONS) {
        expect(jurisdictionCodeFromName(name)).toBe(code);
        expect(jurisdictionCodeFromName(name.toUpperCase())).toBe(code);
        expect(jurisdictionCodeFromName(name.toLowerCase())).toBe(code);
      }
    });

    it.each([
      ['CIUDAD AUTONOMA DE BUENOS AIRES', '02'],
      ['Ciudad Autónoma de Buenos Aires', '02'],
      ['ciudad autonoma de buenos aires', '02'],
      ['CABA', '02'],
      ['caba', '02'],
      ['C.A.B.A.', '02'],
      ['C.A.B.A', '02'],
      ['CAPITAL FEDERAL', '02'],
      ['Capital Federal', '02'],
      ['Cap. Fed.', '02'],
      ['CIUDAD DE BUENOS AIRES', '02'],
      ['BUENOS AIRES', '06'],
      ['Provincia de Buenos Aires', '06'],
      ['PCIA. DE BUENOS AIRES', '06'],
      ['Bs. As.', '06'],
      ['CORDOBA', '14'],
      ['Córdoba', '14'],
      ['  córdoba  ', '14'],
      ['Provincia de Córdoba', '14'],
      ['ENTRE RIOS', '30'],
      ['Entre   Ríos', '30'],
      ['NEUQUEN', '58'],
      ['RIO NEGRO', '62'],
      ['TUCUMAN', '90'],
      ['SANTIAGO DEL ESTERO', '86'],
      ['Santiago Del Estero', '86'],
      ['SGO. DEL ESTERO', '86'],
      ['TIERRA DEL FUEGO', '94'],
      ['Tierra del Fuego', '94'],
      ['TIERRA DEL FUEGO, ANTARTIDA E ISLAS DEL ATLANTICO SUR', '94'],
      ['Tierra del Fuego Antártida e Islas del Atlántico Sur', '94'],
      ['SAN LUIS', '74'],
      ['SAN JUAN', '70'],
      ['SANTA FE', '82'],
      ['SANTA CRUZ', '78'],
      ['LA RIOJA', '46'],
      ['LA PAMPA', '42'],
    ])('%p → %s', (name, code) => {
      expect(jurisdictionCodeFromName(name)).toBe(code);
    });

    it.each(INDEC_JURISDICTION_CODES.map((c) => [c]))('code %s passed as name → itself', (code) => {
      expect(jurisdictionCodeFromName(code)).toBe(code);
    });

    it.each([
      [''],
      ['   '],
      ['...'],
      ['03'],
      ['2'],
      ['Narnia'],
      ['SAN'],
      ['SANTA'],
      ['CIUDAD'],
      ['PROVINCIA'],
      ['PROVINCIA DE'],
      ['Uruguay'],
      ['constructor'],
      ['__proto__'],
    ])('%p → undefined', (name) => {
      expect(jurisdictionCodeFromName(name)).toBeUndefined();
    });

    it('rejects non-strings at run time', () => {
      expect(jurisdictionCodeFromName(null as unknown as string)).toBeUndefined();
      expect(jurisdictionCodeFromName(2 as unknown as string)).toBeUndefined();
    });
  });
});
