/** The patterns of the prescription's content (SPEC 9.2), as OpenAPI states them (ECMA-262). */

/** ICD-10: a letter (not U), two digits, optionally a dot and 1–4 digits or capital letters. */
export const CIE10_PATTERN = '^[A-TV-Z][0-9]{2}(\\.[0-9A-Z]{1,4})?$';
export const CIE10 = new RegExp(CIE10_PATTERN);

/** An insurer's member number: 1–30 letters, digits, `-` or `/` (PAMI's `15-12345678-9/00`). */
export const AFILIADO_PATTERN = '^[A-Za-z0-9/-]{1,30}$';
export const AFILIADO = new RegExp(AFILIADO_PATTERN);

/** The insurer's code in the national registry of health insurers (RNOS): 6 digits. */
export const RNOS_PATTERN = '^[0-9]{6}$';
export const RNOS = /^[0-9]{6}$/;

/** A calendar date `YYYY-MM-DD` (the validator also refuses dates that do not exist). */
export const CALENDAR_DATE_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';

/** `sexo` as the national registry (RENAPER) writes it since Ley 26.743: F, M or X. */
export const SEXOS = ['F', 'M', 'X'] as const;
export type Sexo = (typeof SEXOS)[number];

/** A catalogue code: 1–32 letters, digits or dashes. */
export const CODIGO_MEDICAMENTO = /^[A-Za-z0-9-]{1,32}$/;
