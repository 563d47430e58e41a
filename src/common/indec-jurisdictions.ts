/** INDEC's 24 jurisdiction codes (the CUIR's, Res. MS 2214/2025 Annex IV), with their official names. */
export const INDEC_JURISDICTIONS: readonly { readonly code: string; readonly name: string }[] =
  Object.freeze([
    { code: '02', name: 'Ciudad Autónoma de Buenos Aires' },
    { code: '06', name: 'Buenos Aires' },
    { code: '10', name: 'Catamarca' },
    { code: '14', name: 'Córdoba' },
    { code: '18', name: 'Corrientes' },
    { code: '22', name: 'Chaco' },
    { code: '26', name: 'Chubut' },
    { code: '30', name: 'Entre Ríos' },
    { code: '34', name: 'Formosa' },
    { code: '38', name: 'Jujuy' },
    { code: '42', name: 'La Pampa' },
    { code: '46', name: 'La Rioja' },
    { code: '50', name: 'Mendoza' },
    { code: '54', name: 'Misiones' },
    { code: '58', name: 'Neuquén' },
    { code: '62', name: 'Río Negro' },
    { code: '66', name: 'Salta' },
    { code: '70', name: 'San Juan' },
    { code: '74', name: 'San Luis' },
    { code: '78', name: 'Santa Cruz' },
    { code: '82', name: 'Santa Fe' },
    { code: '86', name: 'Santiago del Estero' },
    { code: '90', name: 'Tucumán' },
    { code: '94', name: 'Tierra del Fuego, Antártida e Islas del Atlántico Sur' },
  ]);

export const INDEC_JURISDICTION_CODES: readonly string[] = Object.freeze(
  INDEC_JURISDICTIONS.map((j) => j.code),
);

const NAME_BY_CODE: ReadonlyMap<string, string> = new Map(
  INDEC_JURISDICTIONS.map((j) => [j.code, j.name]),
);

/** True only for one of the 24 codes, written exactly as two ASCII digits. */
export function isIndecJurisdiction(code: string): boolean {
  return typeof code === 'string' && NAME_BY_CODE.has(code);
}

export function jurisdictionName(code: string): string | undefined {
  return typeof code === 'string' ? NAME_BY_CODE.get(code) : undefined;
}

/** Accents, case and non-alphanumerics dropped: "C.A.B.A." and "caba" are one key. */
function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/** Prefixes registries sometimes put before a province name ("Provincia de Córdoba"). */
const PROVINCE_PREFIX_KEYS = ['PROVINCIADE', 'PROVINCIA', 'PROVDE', 'PROV', 'PCIADE', 'PCIA'];

/** Spellings seen in registries besides the official names. */
const ALIASES: ReadonlyArray<readonly [string, string]> = [
  ['CABA', '02'],
  ['CAPITAL FEDERAL', '02'],
  ['CAP FED', '02'],
  ['CIUDAD DE BUENOS AIRES', '02'],
  ['CIUDAD AUTONOMA BUENOS AIRES', '02'],
  ['CIUDAD AUTONOMA DE BS AS', '02'],
  ['CIUDAD DE BS AS', '02'],
  ['CDAD AUTONOMA DE BUENOS AIRES', '02'],
  ['BS AS', '06'],
  ['PBA', '06'],
  ['TIERRA DEL FUEGO', '94'],
  ['TIERRA DEL FUEGO ANTARTIDA E ISLAS DEL ATLANTICO SUR', '94'],
  ['TDF', '94'],
  ['SGO DEL ESTERO', '86'],
  ['STGO DEL ESTERO', '86'],
];

const CODE_BY_KEY: ReadonlyMap<string, string> = new Map([
  ...INDEC_JURISDICTIONS.map((j) => [nameKey(j.name), j.code] as const),
  ...ALIASES.map(([alias, code]) => [nameKey(alias), code] as const),
]);

/** The INDEC code of a province name as registries write it (or of a valid code), else undefined. */
export function jurisdictionCodeFromName(name: string): string | undefined {
  if (typeof name !== 'string') return undefined;
  const trimmed = name.trim();
  if (isIndecJurisdiction(trimmed)) return trimmed;
  const key = nameKey(trimmed);
  if (key === '') return undefined;
  const direct = CODE_BY_KEY.get(key);
  if (direct !== undefined) return direct;
  // "Provincia de Córdoba": retry without the prefix (after the full key, which it must not shadow).
  for (const prefix of PROVINCE_PREFIX_KEYS) {
    if (key.startsWith(prefix) && key.length > prefix.length) {
      const code = CODE_BY_KEY.get(key.slice(prefix.length));
      if (code !== undefined) return code;
    }
  }
  return undefined;
}
