/** stdout carries only the command's result (one JSON object with --json); diagnostics go to stderr. */
export interface Output {
  json(value: unknown): void;
  line(text: string): void;
  error(text: string): void;
  /** `value` as one JSON object with --json, else as the lines `describe` makes of it. */
  result<T>(json: boolean | undefined, value: T, describe: (v: T) => string | string[]): void;
}

export const processOutput: Output = {
  json: (value) => process.stdout.write(`${JSON.stringify(value)}\n`),
  line: (text) => process.stdout.write(`${text}\n`),
  error: (text) => process.stderr.write(`${text}\n`),
  result(json, value, describe) {
    if (json) return this.json(value);
    for (const line of [describe(value)].flat()) this.line(line);
  },
};
