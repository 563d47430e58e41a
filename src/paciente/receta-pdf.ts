/**
 * The printable prescription (contract §8): one A4 page made with pdfkit, fonts embedded, the CUIR
 * as digits, as a Code 128 barcode and as a QR code of its verification URL. Pure: the same
 * view gives the same bytes (the PDF's dates come from the view, not the clock).
 */
import PDFDocument from 'pdfkit';
import { code128, CODE128_QUIET_MODULES, drawLinear, drawMatrix, qrCode } from './pdf/barcodes.js';
import { drawItemsTable } from './pdf/items-table.js';
import { pdfFonts } from './pdf/pdf-fonts.js';
import { ESTADO_LABEL, fechaAr, fechaHoraAr, type RecetaPdfView } from './receta-pdf-view.js';
import type { EstadoReceta } from '../recetas/recetas.public.js';

type Doc = PDFKit.PDFDocument;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const CONTENT = A4.width - 2 * MARGIN;
const F = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' };
const GREY = '#555555';
const RED = '#B00020';

/**
 * 1.44 pt = 0.508 mm = exactly 3 pixels at 150 dpi (and 6 at 300): wide enough for any
 * scanner, and the 41-digit CUIR (277 modules) still takes only 399 pt of the 515 available.
 */
const CODE128_MODULE = 1.44;
const CODE128_HEIGHT = 42;
const QR_SIZE = 112;
/** One pixel at 150 dpi: barcode origins are snapped to it so bar edges fall on pixel edges. */
const PX150 = 72 / 150;
const snap = (v: number) => Math.round(v / PX150) * PX150;

const ESTADO_COLOR: Record<EstadoReceta, string> = {
  VIGENTE: '#1B5E20',
  DISPENSADA_PARCIAL: '#0D47A1',
  DISPENSADA: '#37474F',
  VENCIDA: '#6D4C41',
  ANULADA: RED,
};

interface TextStyle {
  font?: string;
  size: number;
  color?: string;
  width?: number;
  /** Most lines the text may take; cut with an ellipsis beyond. */
  lines?: number;
  align?: 'left' | 'center' | 'right';
}

/** Every text call carries a height: pdfkit then never flows onto a new page. */
function put(doc: Doc, text: string, x: number, y: number, s: TextStyle): number {
  doc
    .font(s.font ?? F.regular)
    .fontSize(s.size)
    .fillColor(s.color ?? '#000000');
  const width = s.width ?? CONTENT;
  const max = doc.currentLineHeight(true) * (s.lines ?? 1) + 0.5;
  const height = Math.min(doc.heightOfString(text, { width }), max);
  doc.text(text, x, y, { width, height: max, ellipsis: true, align: s.align ?? 'left' });
  return y + height;
}

/** A small grey label above its value (at most `lines` lines); returns the y below the value. */
function field(
  doc: Doc,
  label: string,
  value: string,
  x: number,
  y: number,
  width: number,
  lines = 2,
) {
  const below = put(doc, label, x, y, { size: 7.5, color: GREY, width });
  return put(doc, value, x, below + 1, { size: 9.5, width, lines }) + 6;
}

function header(doc: Doc, view: RecetaPdfView): number {
  const left = CONTENT - QR_SIZE - 16;
  let y = put(doc, 'Receta electrónica', MARGIN, MARGIN, { font: F.bold, size: 20, width: left });
  if (view.restriccion)
    y = put(doc, view.restriccion, MARGIN, y + 2, {
      font: F.bold,
      size: 13,
      color: RED,
      width: left,
    });
  y = put(
    doc,
    'Documento para imprimir de una receta registrada. Se verifica por su CUIR.',
    MARGIN,
    y + 4,
    {
      size: 8.5,
      color: GREY,
      width: left,
      lines: 2,
    },
  );
  y = put(doc, 'CUIR', MARGIN, y + 12, { size: 7.5, color: GREY, width: left });
  y = put(doc, view.cuir, MARGIN, y + 1, { font: F.bold, size: 12.5, width: left });

  // The state, as a coloured badge.
  const label = ESTADO_LABEL[view.estado_receta];
  const color = ESTADO_COLOR[view.estado_receta];
  doc.font(F.bold).fontSize(12);
  const badgeWidth = doc.widthOfString(label) + 16;
  const badgeY = y + 10;
  doc.roundedRect(MARGIN, badgeY, badgeWidth, 22, 3).lineWidth(1.5).strokeColor(color).stroke();
  put(doc, label, MARGIN + 8, badgeY + 5, { font: F.bold, size: 12, color, width: badgeWidth });
  put(doc, 'Estado de la receta', MARGIN + badgeWidth + 8, badgeY + 7, {
    size: 8,
    color: GREY,
    width: 200,
  });

  const qrX = snap(MARGIN + CONTENT - QR_SIZE);
  drawMatrix(doc, qrCode(view.verification_url), { x: qrX, y: snap(MARGIN), size: QR_SIZE });
  put(doc, 'Escanee para verificar', qrX, MARGIN + QR_SIZE + 4, {
    size: 7,
    color: GREY,
    width: QR_SIZE,
    align: 'center',
  });
  return Math.max(badgeY + 22, MARGIN + QR_SIZE + 14);
}

function barcode(doc: Doc, cuir: string, top: number): number {
  const symbol = code128(cuir);
  const total = (symbol.modules + 2 * CODE128_QUIET_MODULES) * CODE128_MODULE;
  const x = snap(MARGIN + (CONTENT - total) / 2 + CODE128_QUIET_MODULES * CODE128_MODULE);
  const y = snap(top + 14);
  drawLinear(doc, symbol, { x, y, moduleWidth: CODE128_MODULE, height: CODE128_HEIGHT });
  return put(doc, cuir, MARGIN, y + CODE128_HEIGHT + 3, { size: 9, align: 'center' });
}

/** "Ana María Fernández" and, below, "DNI 30111222 · sexo F · nacimiento 14/03/1985". */
function pacienteText(view: RecetaPdfView): string {
  const p = view.paciente;
  if (!p) return `DNI ${view.documento_paciente}`;
  return `${p.nombre} ${p.apellido}\nDNI ${view.documento_paciente} · sexo ${p.sexo} · nacimiento ${fechaAr(p.fecha_nacimiento)}`;
}

/** "PAMI" and, below, "Afiliado 15-12345678-9/00 · Plan 210 · RNOS 500807" (the plan as named). */
function coberturaText(c: NonNullable<RecetaPdfView['cobertura']>): string {
  const rest = [
    `Afiliado ${c.numero_afiliado}`,
    c.plan ?? null,
    c.codigo_rnos ? `RNOS ${c.codigo_rnos}` : null,
  ];
  return `${c.financiador}\n${rest.filter(Boolean).join(' · ')}`;
}

/**
 * Three columns: when and where; who it is for and who pays; who prescribed and why. Three
 * narrow columns rather than two wide ones leave the items table the height ten fully described
 * items need.
 */
function details(doc: Doc, view: RecetaPdfView, top: number): number {
  const gap = 14;
  const w = (CONTENT - 2 * gap) / 3;
  const [x0, x1, x2] = [MARGIN, MARGIN + w + gap, MARGIN + 2 * (w + gap)];
  let y0 = top;
  y0 = field(
    doc,
    'Fecha de emisión',
    `${fechaHoraAr(view.fecha_creacion)} (hora de Argentina)`,
    x0,
    y0,
    w,
  );
  y0 = field(
    doc,
    'Vigencia',
    `del ${fechaAr(view.vigencia_desde)} al ${fechaAr(view.vigencia_hasta)}`,
    x0,
    y0,
    w,
  );
  y0 = field(doc, 'Lugar de atención', view.locacion, x0, y0, w, 3);

  let y1 = top;
  y1 = field(doc, 'Paciente', pacienteText(view), x1, y1, w, 4);
  if (view.cobertura) y1 = field(doc, 'Cobertura', coberturaText(view.cobertura), x1, y1, w, 4);

  let y2 = top;
  if (view.profesional_nombre) y2 = field(doc, 'Profesional', view.profesional_nombre, x2, y2, w);
  y2 = field(doc, 'Matrícula', view.matricula_profesional, x2, y2, w);
  const { code, name } = view.jurisdiccion;
  y2 = field(doc, 'Jurisdicción de la matrícula', name ? `${code} ${name}` : code, x2, y2, w);
  if (view.diagnostico_codigo)
    y2 = field(doc, 'Diagnóstico (CIE-10)', view.diagnostico_codigo, x2, y2, w, 1);

  const y = Math.max(y0, y1, y2);
  return view.anulacion ? anulacion(doc, view.anulacion, y + 2) : y;
}

function anulacion(doc: Doc, a: { at: string; motivo: string }, top: number): number {
  const inner = CONTENT - 16;
  let y = put(doc, `ANULADA el ${fechaHoraAr(a.at)} (hora de Argentina)`, MARGIN + 8, top + 6, {
    font: F.bold,
    size: 10,
    color: RED,
    width: inner,
  });
  y = put(doc, `Motivo: ${a.motivo}`, MARGIN + 8, y + 2, {
    size: 9,
    color: RED,
    width: inner,
    lines: 3,
  });
  doc
    .rect(MARGIN, top, CONTENT, y + 6 - top)
    .lineWidth(1)
    .strokeColor(RED)
    .stroke();
  return y + 14;
}

function footer(doc: Doc, view: RecetaPdfView): number {
  const top = A4.height - MARGIN - 46;
  doc
    .moveTo(MARGIN, top)
    .lineTo(MARGIN + CONTENT, top)
    .lineWidth(0.5)
    .strokeColor(GREY)
    .stroke();
  let y = put(doc, 'Huella SHA-256 del contenido registrado', MARGIN, top + 6, {
    size: 7,
    color: GREY,
  });
  y = put(doc, view.content_sha256, MARGIN, y + 1, { size: 8 });
  y = put(doc, 'Verificación en línea', MARGIN, y + 5, { size: 7, color: GREY });
  put(doc, view.verification_url, MARGIN, y + 1, { size: 8 });
  return top;
}

/** A big diagonal mark across the page, over everything, translucent so the page stays legible. */
function anuladaMark(doc: Doc): void {
  const cx = A4.width / 2;
  const cy = A4.height / 2;
  doc.save();
  doc.rotate(-35, { origin: [cx, cy] });
  doc.font(F.bold).fontSize(110).fillColor(RED).fillOpacity(0.18);
  const width = doc.widthOfString('ANULADA');
  doc.text('ANULADA', cx - width / 2, cy - 65, { width: width + 2, height: 140, lineBreak: false });
  doc.restore();
}

export async function renderRecetaPdf(view: RecetaPdfView): Promise<Buffer> {
  const fonts = pdfFonts();
  const created = new Date(view.fecha_creacion);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    // pdfkit opens its first font in the constructor: ours, so Helvetica's metrics are never
    // loaded (it takes a fontkit font, though its typings say string).
    font: fonts.regular as unknown as string,
    lang: 'es-AR',
    displayTitle: true,
    info: {
      Title: `Receta ${view.cuir}`,
      Subject: 'Receta electrónica',
      Creator: 'Prescription Registry Service',
      Producer: 'PDFKit',
      CreationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.registerFont(F.regular, fonts.regular as unknown as string);
  doc.registerFont(F.bold, fonts.bold as unknown as string);

  let y = header(doc, view);
  y = barcode(doc, view.cuir, y);
  y = details(doc, view, y + 14);
  y = put(doc, 'Medicamentos prescriptos', MARGIN, y + 4, { font: F.bold, size: 11 });
  const bottom = footer(doc, view);
  drawItemsTable(
    doc,
    view.items,
    { x: MARGIN, y: y + 4, width: CONTENT, height: bottom - 10 - (y + 4) },
    F,
  );
  if (view.estado_receta === 'ANULADA') anuladaMark(doc);

  // The layout never adds a page; if it ever did, that is a bug to see, not a PDF to send.
  const pages = doc.bufferedPageRange().count;
  doc.end();
  await ended;
  if (pages !== 1) throw new Error(`receta PDF laid out on ${pages} pages`);
  return Buffer.concat(chunks);
}
