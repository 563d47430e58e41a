/**
 * Contract §6: logs never carry a document number, a name or a secret. Every suite of the
 * reliability run hands its apps' logs and its processes' output to one guard and checks them
 * at the end, against the fixture documents and names, the DNIs its fuzzers made, and every
 * secret it holds.
 */
export const FIXTURE_DOCUMENTS = ['30111222', '25111222', '27333444'];

/** Names of the fixture people, as the registries write them and as humans do. */
export const FIXTURE_NAMES = [
  'ANA MARÍA',
  'ANA MARIA',
  'FERNÁNDEZ',
  'FERNANDEZ',
  'LAURA',
  'GÓMEZ',
  'GOMEZ',
  'CARLOS',
  'PÉREZ',
];

/**
 * Generated DNIs all look like 41ddd777: the scan finds any of them with one pattern. A whole
 * token only: the same eight digits inside a UUID or a hash (every access line carries two
 * UUIDs) are no document.
 */
export const FUZZ_DNI_PATTERN = /(?<![0-9A-Za-z])41\d{3}777(?![0-9A-Za-z])/;

/** `doc` as a whole token of `text` (not inside a longer run of letters or digits), or -1. */
const tokenAt = (text: string, doc: string): number =>
  new RegExp(`(?<![0-9A-Za-z])${doc}(?![0-9A-Za-z])`).exec(text)?.index ?? -1;
export const fuzzDni = (n: number) => `41${String(n % 1000).padStart(3, '0')}777`;

export class LogGuard {
  private readonly sources: Array<{ name: string; read: () => string }> = [];
  private readonly secrets = new Set<string>();

  /** A log source read at check time (an app's rawLogs, a process's output). */
  watch(name: string, read: () => string): void {
    this.sources.push({ name, read });
  }

  secret(value: string): void {
    this.secrets.add(value);
  }

  /** Every finding, as "source: what (context)"; empty when clean. */
  findings(): string[] {
    const found: string[] = [];
    for (const { name, read } of this.sources) {
      const text = read();
      const upper = text.toUpperCase();
      const report = (what: string, at: number) =>
        found.push(`${name}: ${what} in …${text.slice(Math.max(0, at - 120), at + 60)}…`);
      for (const doc of FIXTURE_DOCUMENTS) {
        const at = tokenAt(text, doc);
        if (at >= 0) report(`document ${doc}`, at);
      }
      const fuzz = FUZZ_DNI_PATTERN.exec(text);
      if (fuzz) report(`fuzzed document ${fuzz[0]}`, fuzz.index);
      for (const n of FIXTURE_NAMES) {
        // Whole words only: LAURA must not match inside an unrelated identifier.
        const m = new RegExp(`(^|[^\\p{L}])${n}([^\\p{L}]|$)`, 'u').exec(upper);
        if (m) report(`name ${n}`, m.index);
      }
      for (const s of this.secrets) {
        const at = text.indexOf(s);
        if (at >= 0) report(`secret ${s.slice(0, 6)}…`, at);
      }
    }
    return found;
  }

  /** Bytes scanned, so a test can show the scan saw the logs at all. */
  size(): number {
    return this.sources.reduce((n, s) => n + s.read().length, 0);
  }
}
