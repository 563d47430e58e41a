import { getMetadataStorage } from 'class-validator';

/**
 * What an operator reads about a setting, declared beside it with `@Documented(…)`:
 * scripts/docs-settings.mjs writes docs/operators.md's settings table and `.env.example` from it.
 */
export interface SettingDoc {
  readonly name: string;
  /** The settings table's "meaning" column. */
  readonly meaning: string;
  /** `.env.example` writes `NAME=<default>`; checked against the code. */
  readonly default?: string | number | boolean;
  /** A default that is not one value (computed, or none): shown in the table, `NAME=` in `.env.example`. */
  readonly defaultText?: string;
  /** `.env.example`'s comment, when it should say more than `meaning`. */
  readonly env?: string;
  /** Starts a section of `.env.example` at this setting. */
  readonly section?: string;
}

const docs = new Map<object, SettingDoc[]>();

export const Documented =
  (meaning: string, options: Omit<SettingDoc, 'name' | 'meaning'> = {}): PropertyDecorator =>
  (target, property) => {
    const list = docs.get(target.constructor) ?? [];
    list.push({ name: String(property), meaning, ...options });
    docs.set(target.constructor, list);
  };

/** The documented settings of a variables class, in declaration order. */
export const settingDocs = (variables: new () => object): readonly SettingDoc[] =>
  docs.get(variables) ?? [];

/** Every setting a variables class reads: its validated properties, in declaration order. */
export function settingNames(variables: new () => object): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(variables, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

/** The core's settings, or one module's settings slice. */
export interface SettingsGroup {
  readonly title: string;
  readonly variables: new () => object;
}

/** The settings a group reads that carry no `@Documented`. */
export const undocumented = (group: SettingsGroup): string[] => {
  const known = new Set(settingDocs(group.variables).map((d) => d.name));
  return settingNames(group.variables).filter((n) => !known.has(n));
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The settings table of docs/operators.md (before prettier aligns it). */
export function settingsTable(groups: readonly SettingsGroup[]): string {
  const rows = groups.flatMap((g) =>
    settingDocs(g.variables).map(
      (d) =>
        `| \`${d.name}\` | ${cell(d.defaultText ?? String(d.default ?? '—'))} | ${cell(d.meaning)} |`,
    ),
  );
  return ['| setting | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

const ENV_EXAMPLE_PREAMBLE = `# Every setting the service reads, with its default. All are validated at start: a bad value
# stops the start with a message naming the setting. Outside production, unset registry URLs
# use the built-in sandbox and an unset DATABASE_URL the embedded database; with
# NODE_ENV=production the start refuses (exit 1, naming each) unless DATABASE_URL, the four
# external-system URLs, the citizen token's issuer, API_SECRET_PEPPER,
# VERIFICACION_PUBLICA_CLAVE and PATIENT_DATA_KEYS are all set, strong (32+ random bytes, no
# repeated pattern, not a placeholder) and distinct from each other.
#
# Written by \`npm run docs:settings\` from the settings' @Documented declarations: edit those.`;

/** Words of `text` as `# ` lines of at most `width` columns. */
function commentLines(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length > 1 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line.length > 1) lines.push(line);
  return lines;
}

/** `.env.example`: every documented setting, by section, with its comment and default. */
export function envExample(groups: readonly SettingsGroup[]): string {
  const out = [ENV_EXAMPLE_PREAMBLE];
  for (const g of groups) {
    settingDocs(g.variables).forEach((d, i) => {
      const section = d.section ?? (i === 0 ? g.title : undefined);
      if (section) out.push('', `# --- ${section}`);
      out.push(...commentLines(d.env ?? d.meaning));
      out.push(`${d.name}=${String(d.default ?? '')}`);
    });
  }
  return `${out.join('\n')}\n`;
}
