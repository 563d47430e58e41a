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

/**
 * 'format' → the request itself is malformed (400 VALIDATION_FAILED);
 * 'rule' → well-formed but type/subtype incompatible (422 CUIR_RULES_VIOLATED).
 */
export type CuirIssueKind = 'format' | 'rule';

export interface CuirComponentIssue extends CuirIssue {
  kind: CuirIssueKind;
}

export type CuirParseResult =
  { ok: true; components: CuirComponents } | { ok: false; issues: CuirIssue[] };

export interface ValidateComponentsOptions {
  enforceTypeSubtypeRules: boolean;
}

export class CuirFormatError extends Error {
  readonly reasons: CuirIssue[];

  constructor(reasons: CuirIssue[]) {
    super(`Invalid CUIR: ${reasons.map((r) => `${r.field} ${r.issue}`).join('; ')}`);
    this.name = 'CuirFormatError';
    this.reasons = reasons;
  }
}

// Explicit [0-9] ranges: only ASCII digits are part of the format, never other Unicode digits.
const DIGITS = /^[0-9]*$/;

function isAsciiDigits(s: string, length: number): boolean {
  return s.length === length && DIGITS.test(s);
}

function quote(value: string): string {
  // Shown inside issue messages: bounded and escaped, so a hostile value stays harmless.
  const shown = value.length > 50 ? `${value.slice(0, 50)}…` : value;
  return `'${JSON.stringify(shown).slice(1, -1)}'`;
}

function listOf(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/** type_subtype as the API reports it: prescriptionType followed by medicationType. */
export function typeSubtype(
  c: Pick<CuirComponents, 'prescriptionType' | 'medicationType'>,
): string {
  return `${c.prescriptionType}${c.medicationType}`;
}

/**
 * Validates every component's own format and, when asked, the type/subtype compatibility.
 * Generation uses it with the client's "local rules" setting: off, any 2-digit
 * medicationType is accepted with a known prescription type (contract §3).
 */
export function validateComponents(
  c: Partial<CuirComponents>,
  opts: ValidateComponentsOptions,
): CuirComponentIssue[] {
  const issues: CuirComponentIssue[] = [];
  const format = (field: CuirComponentField, issue: string): void => {
    issues.push({ field, issue, kind: 'format' });
  };
  const input = (c ?? {}) as Record<string, unknown>;

  // First pass: presence, type and width of each component; remember the well-formed ones.
  const wellFormed = new Map<CuirComponentField, string>();
  for (const { field, length } of CUIR_LAYOUT) {
    const value = input[field];
    if (value === undefined || value === null) {
      format(field, 'is required');
    } else if (typeof value !== 'string') {
      format(field, 'must be a string');
    } else if (!isAsciiDigits(value, length)) {
      format(field, `must be exactly ${length} digits`);
    } else {
      wellFormed.set(field, value);
    }
  }

  // Second pass: table membership, only for components whose shape is already right.
  const jurisdiction = wellFormed.get('jurisdiction');
  if (jurisdiction !== undefined && !isIndecJurisdiction(jurisdiction)) {
    format('jurisdiction', `unknown INDEC jurisdiction code ${quote(jurisdiction)}`);
  }

  const itemId = wellFormed.get('itemId');
  if (itemId === '00') format('itemId', 'must be from 01 to 99');

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
 * Concatenates the components. Validates formats only by default, because generation with
 * local rules off must be able to issue any 2-digit subtype; pass
 * `enforceTypeSubtypeRules: true` to also require a table-valid subtype.
 */
export function buildCuir(
  c: CuirComponents,
  opts: ValidateComponentsOptions = { enforceTypeSubtypeRules: false },
): string {
  const issues = validateComponents(c, opts);
  if (issues.length > 0) {
    throw new CuirFormatError(issues.map(({ field, issue }) => ({ field, issue })));
  }
  return CUIR_LAYOUT.map(({ field }) => c[field]).join('');
}

function layoutFieldAt(index: number): CuirComponentField | undefined {
  let end = 0;
  for (const { field, length } of CUIR_LAYOUT) {
    end += length;
    if (index < end) return field;
  }
  return undefined;
}

/**
 * Parses and structurally validates a CUIR: 41 ASCII digits, a known jurisdiction, a known
 * prescription type, any 2-digit subtype and an itemId 01–99 — the shape of every CUIR
 * generation can issue (with local rules off it issues subtypes outside the table, and those
 * must register, contract §3). Whether a CUIR may be registered is the ledger's answer.
 */
export function parseCuir(s: string): CuirParseResult {
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
    const where = layoutFieldAt(bad);
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
  if (componentIssues.length > 0) {
    return { ok: false, issues: componentIssues.map(({ field, issue }) => ({ field, issue })) };
  }
  return { ok: true, components };
}
