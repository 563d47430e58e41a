/**
 * Code 128 and QR symbols for the printable prescription, encoded by bwip-js and drawn by
 * pdfkit as vector rectangles rather than embedded PNG images: bwip-js's `raw` output (bar
 * widths, module matrix) is the same encoding its PNGs are painted from, and rectangles stay
 * sharp at any print or scan resolution, where an upscaled image gets resampled (and blurred)
 * by the viewer. It is also faster: no PNG to encode, decode and re-compress.
 */
import bwipjs from 'bwip-js';

type Doc = PDFKit.PDFDocument;

/** Code 128's quiet zone: at least 10 modules of white on each side. */
export const CODE128_QUIET_MODULES = 10;

export interface LinearSymbol {
  /** Total width in modules, quiet zones excluded. */
  modules: number;
  /** Dark bars as [start, width] in modules. */
  bars: Array<[number, number]>;
}

/**
 * bwip-js picks code sets itself: an all-digit text goes in set C, two digits per symbol, so
 * the 41-digit CUIR takes 277 modules (start C, 20 pairs, a switch, the last digit, check, stop).
 */
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

export interface MatrixSymbol {
  size: number;
  /** Row-major, 1 = dark. */
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
