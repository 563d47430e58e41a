/**
 * Code 128 and QR symbols, encoded by bwip-js (`raw`) and drawn by pdfkit as vector rectangles
 * rather than PNG images: sharp at any print or scan resolution, and no PNG to encode.
 */
import bwipjs from 'bwip-js';

type Doc = PDFKit.PDFDocument;

/** Code 128's quiet zone: at least 10 modules of white on each side. */
export const CODE128_QUIET_MODULES = 10;

/** `modules`: total width, quiet zones excluded; `bars`: dark [start, width], in modules. */
interface LinearSymbol {
  modules: number;
  bars: Array<[number, number]>;
}

/** bwip-js puts digits in set C, two per symbol: the 41-digit CUIR takes 277 modules. */
export function code128(text: string): LinearSymbol {
  const [symbol] = bwipjs.raw('code128', text, {}) as Array<{ sbs: number[] }>;
  const bars: Array<[number, number]> = [];
  let at = 0;
  symbol.sbs.forEach((width, i) => {
    if (i % 2 === 0) bars.push([at, width]); // bar, space, bar, space…
    at += width;
  });
  return { modules: at, bars };
}

/** `dark`: row-major, 1 = dark. */
interface MatrixSymbol {
  size: number;
  dark: number[];
}

/** Error correction M (15 %): survives a crease or a smudge without growing the symbol much. */
export function qrCode(text: string): MatrixSymbol {
  const [symbol] = bwipjs.raw('qrcode', text, { eclevel: 'M' } as object) as Array<{
    pixs: number[];
    pixx: number;
  }>;
  return { size: symbol.pixx, dark: symbol.pixs };
}

/** Draws the bars with their left edge at x (quiet zones are the caller's white space). */
export function drawLinear(
  doc: Doc,
  symbol: LinearSymbol,
  at: { x: number; y: number; moduleWidth: number; height: number },
): void {
  doc.save();
  for (const [start, width] of symbol.bars) {
    doc.rect(at.x + start * at.moduleWidth, at.y, width * at.moduleWidth, at.height);
  }
  doc.fill('#000000').restore();
}

/** Draws the matrix in a `size` × `size` square, one rectangle per horizontal run of dark. */
export function drawMatrix(
  doc: Doc,
  symbol: MatrixSymbol,
  at: { x: number; y: number; size: number },
): void {
  const m = at.size / symbol.size;
  doc.save();
  for (let row = 0; row < symbol.size; row++) {
    let col = 0;
    while (col < symbol.size) {
      if (!symbol.dark[row * symbol.size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < symbol.size && symbol.dark[row * symbol.size + col]) col++;
      // A hair of overlap between rows: no anti-aliasing seam between adjacent dark modules.
      doc.rect(at.x + start * m, at.y + row * m, (col - start) * m, m + 0.01);
    }
  }
  doc.fill('#000000').restore();
}
