/**
 * The fonts embedded in the printable prescription: DejaVu Sans (regular and bold), from the
 * npm package `dejavu-fonts-ttf` (2.37.3). Licence: Bitstream Vera Fonts licence with the Arev
 * additions, DejaVu changes in the public domain — free to use, embed and redistribute (only
 * selling the fonts by themselves, or modifying them under the Vera name, is excluded); see
 * node_modules/dejavu-fonts-ttf/LICENSE. pdfkit embeds a subset of the glyphs used, so accents
 * (á é í ó ú ñ ü) print the same everywhere: no system font, nothing fetched at run time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

export interface PdfFonts {
  regular: Font;
  bold: Font;
}

let loaded: PdfFonts | undefined;

/**
 * Parsed once per process and shared by every document. pdfkit would otherwise re-parse the
 * TTFs (1.4 MB, large kerning tables) for each PDF, which was most of a render's time; it takes
 * a ready fontkit font as well as a file, and keeps each document's glyph subset separately.
 */
export function pdfFonts(): PdfFonts {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const file = (name: string) =>
      create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`))) as Font;
    loaded = { regular: file('DejaVuSans.ttf'), bold: file('DejaVuSans-Bold.ttf') };
  }
  return loaded;
}
