/**
 * The naming rules of what a slice declares, checked where each thing is declared and again when
 * the slices are registered, so a bad name stops `npm run check` and the start.
 */
export const NAMING_RULES = {
  /** `<module>:<action>`: lower-case words, hyphens inside the module part (`obras-sociales:read`). */
  scope: /^[a-z][a-z-]*:[a-z]+$/,
  /** An OpenAPI tag: lower-case ASCII, hyphens allowed (generated clients name things after it). */
  tag: /^[a-z][a-z-]*$/,
  /** An error code: upper-case words joined by underscores (`RECETA_ANULADA`). */
  errorCode: /^[A-Z][A-Z0-9_]*$/,
  /** An environment variable a setting is read from (`DISPENSA_RESERVA_MINUTOS`). */
  setting: /^[A-Z][A-Z0-9_]*$/,
  /** A module's name: its folder, tag and route; lower-case words joined by hyphens (`obras-sociales`). */
  module: /^[a-z]+(-[a-z]+)*$/,
} as const;

type NameKind = keyof typeof NAMING_RULES;

const WHAT: Record<NameKind, string> = {
  scope: 'scope',
  tag: 'OpenAPI tag',
  errorCode: 'error code',
  setting: 'setting',
  module: 'module name',
};

export const isValidName = (kind: NameKind, name: string): boolean => NAMING_RULES[kind].test(name);

/** The names that break `kind`'s rule, each as a line saying which rule. */
export function namingProblems(kind: NameKind, names: Iterable<string>): string[] {
  return [...names]
    .filter((n) => !isValidName(kind, n))
    .map((n) => `${WHAT[kind]} ${JSON.stringify(n)} does not match ${NAMING_RULES[kind].source}`);
}

/** Throws naming every name of `kind` that breaks its rule; `where` says who declared them. */
export function assertNames(kind: NameKind, names: Iterable<string>, where?: string): void {
  const problems = namingProblems(kind, names);
  if (problems.length > 0)
    throw new Error(`${where ? `${where}: ` : ''}${problems.join('; ')} (src/common/naming.ts)`);
}
