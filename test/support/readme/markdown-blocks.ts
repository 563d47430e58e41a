import { readFileSync } from 'node:fs';

/** One ```sh block of a markdown file, under a heading the test runs. */
export interface ShellBlock {
  file: string;
  /** The line (1-based) of the block's first line inside the fence. */
  line: number;
  heading: string;
  lines: string[];
  /** Why it is not run, from `<!-- not run: … -->` on the line before the fence. */
  notRun?: string;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;

/**
 * The ```sh blocks under the given headings (any level; a heading's section runs to the next
 * heading of its level or above, its subsections included), in the order of `headings`, then of
 * the text: a section moved to a page of its own runs where it ran before. Blocks are found by their heading, whichever file holds it: each heading must be
 * found exactly once across the files, and hold at least one block that runs, so a section
 * moved to another page is still run and one dropped or emptied is an error, not a pass.
 */
export function shellBlocks(files: string[], headings: string[]): ShellBlock[] {
  const found = new Map<string, string[]>(headings.map((h) => [h, []]));
  const blocks: ShellBlock[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let section: { heading: string; level: number } | null = null;
    let fence: { marker: string; sh: boolean; block?: ShellBlock } | null = null;
    lines.forEach((line, i) => {
      if (fence) {
        if (line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, '') === '') {
          if (fence.block) blocks.push(fence.block);
          fence = null;
        } else fence.block?.lines.push(line);
        return;
      }
      const f = FENCE.exec(line);
      if (f) {
        const sh = ['sh', 'bash', 'shell'].includes(f[3]);
        let before = i - 1;
        while (before >= 0 && lines[before].trim() === '') before--;
        const notRun = before >= 0 ? NOT_RUN.exec(lines[before].trim())?.[1] : undefined;
        fence = {
          marker: f[2],
          sh,
          block:
            sh && section
              ? { file, line: i + 2, heading: section.heading, lines: [], notRun }
              : undefined,
        };
        return;
      }
      const h = HEADING.exec(line);
      if (!h) return;
      const level = h[1].length;
      if (section && level <= section.level) section = null;
      if (found.has(h[2])) {
        found.get(h[2])?.push(`${file}:${i + 1}`);
        section = { heading: h[2], level };
      }
    });
    if (fence) throw new Error(`${file}: a code fence is not closed`);
  }
  for (const [heading, at] of found) {
    if (at.length !== 1)
      throw new Error(
        `heading "${heading}" found ${at.length} times (${at.join(', ') || `in none of ${files.join(', ')}`}): the test runs each once`,
      );
    if (!blocks.some((b) => b.heading === heading && !b.notRun))
      throw new Error(`heading "${heading}" (${at[0]}) holds no shell block the test runs`);
  }
  // Stable: a heading's blocks keep the text's order.
  return blocks.sort((a, b) => headings.indexOf(a.heading) - headings.indexOf(b.heading));
}
