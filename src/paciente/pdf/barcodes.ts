/**
 * Code 128 and QR symbols, encoded by bwip-js (`raw`) and drawn by pdfkit as vector rectangles
 * rather than PNG images: sharp at any print or scan resolution, and no PNG to encode.
 */
import bwipjs from 'bwip-js';

type Doc = PDFKit.PDFDocument;

/** Code 128's quiet zone: at least 10 modules of white on each side. */
const CODE128_QUIET_MODULES = 10;

/** One pixel at 150 dpi: barcode origins snap to it, so bar edges fall on pixel edges. */
const PX150 = 72 / 150;
export const snap = (v: number) => Math.round(v / PX150) * PX150;

/**
 * Code 128 centred, quiet zones included, in `width` from `x`. bwip-js puts digits in set C, two
 * per symbol: the 41-digit CUIR takes 277 modules.
 */
export function drawCode128(
  doc: Doc,
  text: string,
  at: { x: number; width: number; y: number; moduleWidth: number; height: number },
): void {
  const [{ sbs }] = bwipjs.raw('code128', text, {}) as Array<{ sbs: number[] }>;
  const modules = sbs.reduce((a, b) => a + b, 0);
  const total = (modules + 2 * CODE128_QUIET_MODULES) * at.moduleWidth;
  const x = snap(at.x + (at.width - total) / 2 + CODE128_QUIET_MODULES * at.moduleWidth);
  doc.save();
  let start = 0;
  sbs.forEach((width, i) => {
    // bar, space, bar, space…
    if (i % 2 === 0) doc.rect(x + start * at.moduleWidth, at.y, width * at.moduleWidth, at.height);
    start += width;
  });
  doc.fill('#000000').restore();
}

/**
 * A QR code in a `size` × `size` square, one rectangle per horizontal run of dark modules. Error
 * correction M (15 %): survives a crease or a smudge without growing the symbol much.
 */
export function drawQrCode(doc: Doc, text: string, at: { x: number; y: number; size: number }) {
  const raw = bwipjs.raw('qrcode', text, { eclevel: 'M' } as object);
  const [{ pixs: dark, pixx: size }] = raw as Array<{ pixs: number[]; pixx: number }>;
  const m = at.size / size;
  doc.save();
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!dark[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && dark[row * size + col]) col++;
      // A hair of overlap between rows: no anti-aliasing seam between adjacent dark modules.
      doc.rect(at.x + start * m, at.y + row * m, (col - start) * m, m + 0.01);
    }
  }
  doc.fill('#000000').restore();
}
