/**
 * DejaVu Sans (regular and bold) from `dejavu-fonts-ttf`, free to embed (its LICENSE): pdfkit
 * embeds the glyphs used, so accents print the same everywhere, with nothing fetched at run time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

let loaded: { regular: Font; bold: Font } | undefined;

/**
 * Parsed once per process and shared by every document (pdfkit would re-parse the 1.4 MB TTFs
 * for each); pdfkit keeps each document's glyph subset separately.
 */
export function pdfFonts() {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const file = (name: string) =>
      create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`))) as Font;
    loaded = { regular: file('DejaVuSans.ttf'), bold: file('DejaVuSans-Bold.ttf') };
  }
  return loaded;
}
