/**
 * The items table of the printable prescription, fitted into the height it is given: the font
 * shrinks step by step until every row fits; at the smallest size, rows that still do not fit
 * are cut with an ellipsis. It never flows onto a second page (every text call carries a
 * height, which stops pdfkit from adding pages).
 */
import type { RecetaPdfItem } from '../receta-pdf-view.js';

type Doc = PDFKit.PDFDocument;

export interface TableBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TableFonts {
  regular: string;
  bold: string;
}

const SIZES = [10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5, 6];
const GAP = 6;
const GREY = '#555555';
const RULE = '#BBBBBB';
const pad = (size: number) => (size >= 8 ? 3 : 2);

interface Layout {
  size: number;
  cols: { n: number; nombre: number; codigo: number; cantidad: number };
  header: number;
  rows: number[];
}

/**
 * The narrow columns take what their content needs at this size (a code of up to 32 characters
 * wraps onto two lines at most); the name takes the rest.
 */
function columns(doc: Doc, items: RecetaPdfItem[], width: number, size: number, f: TableFonts) {
  doc.font(f.bold).fontSize(size);
  const n = doc.widthOfString(String(items.length)) + 2;
  const cantidad = doc.widthOfString('Cantidad') + 1;
  const codigoHeader = doc.widthOfString('Código') + 1;
  doc.font(f.regular);
  const longestCode = Math.max(0, ...items.map((i) => doc.widthOfString(i.codigo ?? '')));
  const codigo = Math.max(codigoHeader, Math.min(longestCode + 1, size * 10.5));
  return { n, codigo, cantidad, nombre: width - n - codigo - cantidad - 3 * GAP };
}

function measure(doc: Doc, items: RecetaPdfItem[], box: TableBox, f: TableFonts, size: number) {
  const cols = columns(doc, items, box.width, size, f);
  doc.font(f.regular).fontSize(size);
  const rows = items.map(
    (item) =>
      Math.max(
        doc.heightOfString(item.nombre, { width: cols.nombre }),
        doc.heightOfString(item.codigo ?? '', { width: cols.codigo }),
      ) +
      2 * pad(size),
  );
  const header = size + 2 * pad(size) + 2;
  return { size, cols, header, rows };
}

function fit(doc: Doc, items: RecetaPdfItem[], box: TableBox, f: TableFonts): Layout {
  let layout: Layout | undefined;
  for (const size of SIZES) {
    layout = measure(doc, items, box, f, size);
    const total = layout.header + layout.rows.reduce((a, b) => a + b, 0);
    if (total <= box.height) return layout;
  }
  // Still too tall at the smallest size: every row gets an equal share and is cut to it.
  const share = (box.height - layout!.header) / Math.max(items.length, 1);
  return { ...layout!, rows: layout!.rows.map((h) => Math.min(h, share)) };
}

/** Draws the table; returns the y just below it. */
export function drawItemsTable(
  doc: Doc,
  items: RecetaPdfItem[],
  box: TableBox,
  f: TableFonts,
): number {
  const { size, cols, header, rows } = fit(doc, items, box, f);
  const p = pad(size);
  const xN = box.x;
  const xNombre = xN + cols.n + GAP;
  const xCodigo = xNombre + cols.nombre + GAP;
  const xCantidad = xCodigo + cols.codigo + GAP;
  const cell = (
    text: string,
    x: number,
    y: number,
    width: number,
    height: number,
    align = 'left',
  ) =>
    doc.text(text, x, y, {
      width,
      // A hair over the measured height: float rounding must not drop a last line that fits.
      height: height + 0.5,
      align: align as 'left' | 'right',
      ellipsis: true,
      lineGap: 0,
    });

  let y = box.y;
  doc.font(f.bold).fontSize(size).fillColor(GREY);
  cell('#', xN, y + p, cols.n, size * 1.4);
  cell('Medicamento', xNombre, y + p, cols.nombre, size * 1.4);
  cell('Código', xCodigo, y + p, cols.codigo, size * 1.4);
  cell('Cantidad', xCantidad, y + p, cols.cantidad, size * 1.4, 'right');
  y += header;
  doc
    .moveTo(box.x, y - 1)
    .lineTo(box.x + box.width, y - 1)
    .lineWidth(0.8)
    .strokeColor(GREY)
    .stroke();

  doc.font(f.regular).fillColor('#000000');
  items.forEach((item, i) => {
    const inner = rows[i] - 2 * p;
    cell(String(i + 1), xN, y + p, cols.n, inner);
    cell(item.nombre, xNombre, y + p, cols.nombre, inner);
    cell(item.codigo ?? '—', xCodigo, y + p, cols.codigo, inner);
    cell(String(item.cantidad), xCantidad, y + p, cols.cantidad, inner, 'right');
    y += rows[i];
    doc
      .moveTo(box.x, y)
      .lineTo(box.x + box.width, y)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
  });
  return y;
}
