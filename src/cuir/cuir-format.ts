/**
 * CUIR format (Res. MS 2214/2025 Annex IV): build, parse and validate the 41-digit key
 * platform(4) + repository(4) + jurisdiction(2) + prescriptionType(2) + medicationType(2)
 * + groupId(25) + itemId(2). All numeric, no check digit. Pure: no Nest, no I/O.
 */
import { isIndecJurisdiction } from '../common/indec-jurisdictions.js';

export const CUIR_LENGTH = 41;

export interface CuirComponents {
  platform: string;
  repository: string;
  jurisdiction: string;
  prescriptionType: string;
  medicationType: string;
  groupId: string;
  itemId: string;
}

export type CuirComponentField = keyof CuirComponents;

/** Component order and widths; the CUIR is their concatenation in exactly this order. */
export const CUIR_LAYOUT: ReadonlyArray<{
  readonly field: CuirComponentField;
  readonly length: number;
}> = Object.freeze([
  { field: 'platform', length: 4 },
  { field: 'repository', length: 4 },
  { field: 'jurisdiction', length: 2 },
  { field: 'prescriptionType', length: 2 },
  { field: 'medicationType', length: 2 },
  { field: 'groupId', length: 25 },
  { field: 'itemId', length: 2 },
]);

export const PRESCRIPTION_TYPES: Readonly<Record<string, string>> = Object.freeze({
  '01': 'medication',
  '02': 'medical device',
  '03': 'studies/practices/procedures',
});

/** Subtype (medicationType) values allowed per prescription type. */
export const SUBTYPES_BY_TYPE: Readonly<Record<string, readonly string[]>> = Object.freeze({
  '01': Object.freeze(['01', '02', '03', '04']),
  '02': Object.freeze(['00']),
  '03': Object.freeze(['00']),
});

export interface CuirIssue {
  field: string;
  issue: string;
}

/** 'format': a malformed request (400 VALIDATION_FAILED); 'rule': type/subtype incompatible. */
export interface CuirComponentIssue extends CuirIssue {
  kind: 'format' | 'rule';
}

export class CuirFormatError extends Error {
  constructor(readonly reasons: CuirIssue[]) {
    super(`Invalid CUIR: ${reasons.map((r) => `${r.field} ${r.issue}`).join('; ')}`);
    this.name = 'CuirFormatError';
  }
}

// Explicit [0-9] ranges: only ASCII digits are part of the format, never other Unicode digits.
const DIGITS = /^[0-9]*$/;

/** Shown inside issue messages: bounded and escaped, so a hostile value stays harmless. */
function quote(value: string): string {
  const shown = value.length > 50 ? `${value.slice(0, 50)}…` : value;
  return `'${JSON.stringify(shown).slice(1, -1)}'`;
}

function listOf(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

const withoutKind = ({ field, issue }: CuirIssue): CuirIssue => ({ field, issue });

/** type_subtype as the API reports it: prescriptionType followed by medicationType. */
export function typeSubtype(
  c: Pick<CuirComponents, 'prescriptionType' | 'medicationType'>,
): string {
  return `${c.prescriptionType}${c.medicationType}`;
}

/**
 * Every component's own format and, when asked, the type/subtype compatibility. Generation
 * passes the client's "local rules": off, any 2-digit subtype of a known type passes (contract §3).
 */
export function validateComponents(
  c: Partial<CuirComponents>,
  opts: { enforceTypeSubtypeRules: boolean },
): CuirComponentIssue[] {
  const issues: CuirComponentIssue[] = [];
  const format = (field: CuirComponentField, issue: string): void => {
    issues.push({ field, issue, kind: 'format' });
  };
  const input = (c ?? {}) as Record<string, unknown>;

  // First pass: presence, type and width; table membership is judged only on well-formed ones.
  const wellFormed = new Map<CuirComponentField, string>();
  for (const { field, length } of CUIR_LAYOUT) {
    const value = input[field];
    if (value === undefined || value === null) {
      format(field, 'is required');
    } else if (typeof value !== 'string') {
      format(field, 'must be a string');
    } else if (value.length !== length || !DIGITS.test(value)) {
      format(field, `must be exactly ${length} digits`);
    } else {
      wellFormed.set(field, value);
    }
  }

  const jurisdiction = wellFormed.get('jurisdiction');
  if (jurisdiction !== undefined && !isIndecJurisdiction(jurisdiction)) {
    format('jurisdiction', `unknown INDEC jurisdiction code ${quote(jurisdiction)}`);
  }
  if (wellFormed.get('itemId') === '00') format('itemId', 'must be from 01 to 99');

  const type = wellFormed.get('prescriptionType');
  const knownType = type !== undefined && Object.hasOwn(SUBTYPES_BY_TYPE, type);
  if (type !== undefined && !knownType) {
    format(
      'prescriptionType',
      `unknown prescription type ${quote(type)} (expected ${listOf(Object.keys(PRESCRIPTION_TYPES))})`,
    );
  }

  // The compatibility rule can only be judged against a known type.
  const subtype = wellFormed.get('medicationType');
  if (opts.enforceTypeSubtypeRules && knownType && subtype !== undefined) {
    const allowed = SUBTYPES_BY_TYPE[type];
    if (!allowed.includes(subtype)) {
      issues.push({
        field: 'medicationType',
        issue: `subtype ${quote(subtype)} is not valid for prescription type ${quote(type)} (expected ${listOf(allowed)})`,
        kind: 'rule',
      });
    }
  }
  return issues;
}

/**
 * Concatenates the components, or throws a CuirFormatError. Formats only by default: generation
 * with local rules off must be able to issue any 2-digit subtype.
 */
export function buildCuir(c: CuirComponents, opts = { enforceTypeSubtypeRules: false }): string {
  const issues = validateComponents(c, opts);
  if (issues.length > 0) throw new CuirFormatError(issues.map(withoutKind));
  return CUIR_LAYOUT.map(({ field }) => c[field]).join('');
}

/**
 * Parses and structurally validates a CUIR: 41 ASCII digits, a known jurisdiction, a known
 * prescription type, any 2-digit subtype and an itemId 01–99 — the shape of every CUIR
 * generation can issue (contract §3). Whether a CUIR may be registered is the ledger's answer.
 */
export function parseCuir(
  s: string,
): { ok: true; components: CuirComponents } | { ok: false; issues: CuirIssue[] } {
  if (typeof s !== 'string') {
    return { ok: false, issues: [{ field: 'cuir', issue: 'must be a string' }] };
  }

  const issues: CuirIssue[] = [];
  if (s.length !== CUIR_LENGTH) {
    issues.push({
      field: 'cuir',
      issue: `must be exactly ${CUIR_LENGTH} digits (got ${s.length})`,
    });
  }
  const bad = s.search(/[^0-9]/);
  if (bad >= 0) {
    const ch = String.fromCodePoint(s.codePointAt(bad) as number);
    let end = 0;
    const where = CUIR_LAYOUT.find(({ length }) => bad < (end += length))?.field;
    issues.push({
      field: 'cuir',
      issue: `must contain only digits 0-9; found ${quote(ch)} at position ${bad + 1}${where ? ` (${where})` : ''}`,
    });
  }
  if (issues.length > 0) return { ok: false, issues };

  const parts: Partial<CuirComponents> = {};
  let offset = 0;
  for (const { field, length } of CUIR_LAYOUT) {
    parts[field] = s.slice(offset, offset + length);
    offset += length;
  }
  const components = parts as CuirComponents;
  const componentIssues = validateComponents(components, { enforceTypeSubtypeRules: false });
  if (componentIssues.length > 0) return { ok: false, issues: componentIssues.map(withoutKind) };
  return { ok: true, components };
}
