/**
 * The items table of the printable prescription (SPEC 9.2 members, what was dispensed), fitted
 * into the height it is given: the font shrinks until every row fits; at the smallest size,
 * rows are cut with an ellipsis. Every text call carries a height: it never adds a page.
 */
import { fechaHoraAr, type RecetaPdfItem } from '../receta-pdf-view.js';

type Doc = PDFKit.PDFDocument;

type TableBox = { x: number; y: number; width: number; height: number };

type TableFonts = { regular: string; bold: string };

const SIZES = [10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5, 6];
const GAP = 6;
const GREY = '#555555';
const RULE = '#BBBBBB';
const RED = '#B00020';
const pad = (size: number) => (size >= 8 ? 3 : 2);

/** One paragraph of a cell. */
type Part = { text: string; bold?: boolean; color?: string };

/** The medicine cell: name, generic line, dosage. */
function medicamento(item: RecetaPdfItem): Part[] {
  const generico = [item.dci, item.concentracion, item.forma_farmaceutica, item.presentacion]
    .filter((t) => t)
    .join(' · ');
  return [
    { text: item.nombre, bold: true },
    ...(item.sustituible === false
      ? [{ text: 'NO SUSTITUIR: el profesional no autoriza sustituirlo', bold: true, color: RED }]
      : []),
    ...(generico ? [{ text: generico }] : []),
    ...(item.posologia ? [{ text: `Posología: ${item.posologia}`, color: GREY }] : []),
  ];
}

/** The dispensed cell: "1 de 2 dispensado", then by whom and when, and the substitute. */
function dispensado(item: RecetaPdfItem): Part[] {
  const d = item.dispensa;
  if (!d) return [{ text: `0 de ${item.cantidad} dispensado`, color: GREY }];
  return [
    { text: `${d.cantidad} de ${item.cantidad} dispensado`, bold: true },
    { text: `${d.farmacia}, ${fechaHoraAr(d.fecha)}` },
    ...(d.sustituido
      ? [
          {
            text: `Sustituido por ${d.codigo ? `el código ${d.codigo}` : 'otra marca'}`,
            bold: true,
          },
        ]
      : []),
  ];
}

/**
 * The narrow columns take what their content needs at this size (a code of up to 32 characters
 * wraps onto two lines at most); what was dispensed takes a fifth; the medicine takes the rest.
 */
function columns(doc: Doc, items: RecetaPdfItem[], width: number, size: number, f: TableFonts) {
  doc.font(f.bold).fontSize(size);
  const n = doc.widthOfString(String(items.length)) + 2;
  const cantidad = doc.widthOfString('Cantidad') + 1;
  const codigoHeader = doc.widthOfString('Código') + 1;
  doc.font(f.regular);
  const longestCode = Math.max(0, ...items.map((i) => doc.widthOfString(i.codigo ?? '')));
  const codigo = Math.max(codigoHeader, Math.min(longestCode + 1, size * 10.5));
  const dispensadoCol = Math.round(width * 0.21);
  return {
    n,
    codigo,
    cantidad,
    dispensado: dispensadoCol,
    nombre: width - n - codigo - cantidad - dispensadoCol - 4 * GAP,
  };
}

function partsHeight(doc: Doc, parts: Part[], width: number, size: number, f: TableFonts) {
  return parts.reduce((h, p) => {
    doc.font(p.bold ? f.bold : f.regular).fontSize(size);
    return h + doc.heightOfString(p.text, { width, lineGap: 0 });
  }, 0);
}

/**
 * Draws the paragraphs top down within `height`. When they do not all fit, every paragraph first
 * gets one line, then the rest in order: a long name never pushes NO SUSTITUIR or the dosage off.
 */
function drawParts(doc: Doc, parts: Part[], box: TableBox, size: number, f: TableFonts) {
  const font = (p: Part) => doc.font(p.bold ? f.bold : f.regular).fontSize(size);
  const lineHeight = Math.max(
    ...parts.map((p) => font(p).currentLineHeight(true)),
    doc.currentLineHeight(true),
  );
  const needed = parts.map((p) =>
    Math.max(
      1,
      Math.round(font(p).heightOfString(p.text, { width: box.width, lineGap: 0 }) / lineHeight),
    ),
  );
  let room = Math.floor((box.height + 0.5) / lineHeight);
  let lines = needed;
  if (needed.reduce((a, b) => a + b, 0) > room) {
    lines = needed.map(() => 0);
    for (let i = 0; i < parts.length && room > 0; i++, room--) lines[i] = 1;
    for (let i = 0; i < parts.length && room > 0; i++) {
      const more = Math.min(needed[i] - 1, room);
      lines[i] += more;
      room -= more;
    }
  }
  let y = box.y;
  parts.forEach((p, i) => {
    if (lines[i] === 0) return;
    font(p).fillColor(p.color ?? '#000000');
    const height = lines[i] * lineHeight;
    doc.text(p.text, box.x, y, {
      width: box.width,
      height: height + 0.5,
      ellipsis: true,
      lineGap: 0,
    });
    y += height;
  });
  doc.fillColor('#000000');
}

function measure(doc: Doc, items: RecetaPdfItem[], box: TableBox, f: TableFonts, size: number) {
  const cols = columns(doc, items, box.width, size, f);
  doc.font(f.regular).fontSize(size);
  const rows = items.map(
    (item) =>
      Math.max(
        partsHeight(doc, medicamento(item), cols.nombre, size, f),
        partsHeight(doc, dispensado(item), cols.dispensado, size, f),
        doc.heightOfString(item.codigo ?? '', { width: cols.codigo }),
      ) +
      2 * pad(size),
  );
  const header = size + 2 * pad(size) + 2;
  return { size, cols, header, rows };
}

type Layout = ReturnType<typeof measure>;

/** The largest size at which the table fits, by bisection (measuring is most of a render). */
function fit(doc: Doc, items: RecetaPdfItem[], box: TableBox, f: TableFonts): Layout {
  const fits = (l: Layout) => l.header + l.rows.reduce((a, b) => a + b, 0) <= box.height;
  const at = (i: number) => measure(doc, items, box, f, SIZES[i]);
  const largest = at(0);
  if (fits(largest)) return largest;
  const smallest = at(SIZES.length - 1);
  if (!fits(smallest)) {
    // Too tall at the smallest size: every row gets an equal share and is cut to it.
    const share = (box.height - smallest.header) / Math.max(items.length, 1);
    return { ...smallest, rows: smallest.rows.map((h) => Math.min(h, share)) };
  }
  // SIZES[lo] does not fit, SIZES[hi] does.
  let [lo, hi, best] = [0, SIZES.length - 1, smallest];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const layout = at(mid);
    if (fits(layout)) [hi, best] = [mid, layout];
    else lo = mid;
  }
  return best;
}

export function drawItemsTable(doc: Doc, items: RecetaPdfItem[], box: TableBox, f: TableFonts) {
  const { size, cols, header, rows } = fit(doc, items, box, f);
  const p = pad(size);
  const xN = box.x;
  const xNombre = xN + cols.n + GAP;
  const xCodigo = xNombre + cols.nombre + GAP;
  const xCantidad = xCodigo + cols.codigo + GAP;
  const xDispensado = xCantidad + cols.cantidad + GAP;
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
  cell('Dispensado', xDispensado, y + p, cols.dispensado, size * 1.4);
  y += header;
  doc
    .moveTo(box.x, y - 1)
    .lineTo(box.x + box.width, y - 1)
    .lineWidth(0.8)
    .strokeColor(GREY)
    .stroke();

  items.forEach((item, i) => {
    const inner = rows[i] - 2 * p;
    doc.font(f.regular).fontSize(size).fillColor('#000000');
    const at = (x: number, width: number) => ({ x, y: y + p, width, height: inner });
    cell(String(i + 1), xN, y + p, cols.n, inner);
    drawParts(doc, medicamento(item), at(xNombre, cols.nombre), size, f);
    doc.font(f.regular).fontSize(size);
    cell(item.codigo ?? '—', xCodigo, y + p, cols.codigo, inner);
    cell(String(item.cantidad), xCantidad, y + p, cols.cantidad, inner, 'right');
    drawParts(doc, dispensado(item), at(xDispensado, cols.dispensado), size, f);
    y += rows[i];
    doc
      .moveTo(box.x, y)
      .lineTo(box.x + box.width, y)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
  });
}
