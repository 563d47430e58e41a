/**
 * The printable prescription (contract §8): one A4 page made with pdfkit, fonts embedded, the
 * CUIR as digits, as a Code 128 barcode and as a QR code of its verification URL. Pure: the same
 * view gives the same bytes (the PDF's dates come from the view, not the clock).
 */
import PDFDocument from 'pdfkit';
import { drawCode128, drawQrCode, snap } from './pdf/barcodes.js';
import { drawItemsTable } from './pdf/items-table.js';
import { pdfFonts } from './pdf/pdf-fonts.js';
import { fechaAr, fechaHoraAr, type RecetaPdfView } from './receta-pdf-view.js';
import type { EstadoReceta } from '../recetas/recetas.public.js';

type Doc = PDFKit.PDFDocument;

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const CONTENT = A4.width - 2 * MARGIN;
const F = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' };
const GREY = '#555555';
const RED = '#B00020';

/** 1.44 pt = exactly 3 pixels at 150 dpi: the 41-digit CUIR (277 modules) takes 399 pt. */
const CODE128_MODULE = 1.44;
const CODE128_HEIGHT = 42;
const QR_SIZE = 112;

const ESTADO: Record<EstadoReceta, { label: string; color: string }> = {
  VIGENTE: { label: 'VIGENTE', color: '#1B5E20' },
  DISPENSADA_PARCIAL: { label: 'DISPENSADA PARCIALMENTE', color: '#0D47A1' },
  DISPENSADA: { label: 'DISPENSADA', color: '#37474F' },
  VENCIDA: { label: 'VENCIDA', color: '#6D4C41' },
  ANULADA: { label: 'ANULADA', color: RED },
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
function field(doc: Doc, label: string, value: string, x: number, y: number, w: number, lines = 2) {
  const below = put(doc, label, x, y, { size: 7.5, color: GREY, width: w });
  return put(doc, value, x, below + 1, { size: 9.5, width: w, lines }) + 6;
}

function header(doc: Doc, view: RecetaPdfView): number {
  const width = CONTENT - QR_SIZE - 16;
  let y = put(doc, 'Receta electrónica', MARGIN, MARGIN, { font: F.bold, size: 20, width });
  if (view.restriccion)
    y = put(doc, view.restriccion, MARGIN, y + 2, { font: F.bold, size: 13, color: RED, width });
  const intro = 'Documento para imprimir de una receta registrada. Se verifica por su CUIR.';
  y = put(doc, intro, MARGIN, y + 4, { size: 8.5, color: GREY, width, lines: 2 });
  y = put(doc, 'CUIR', MARGIN, y + 12, { size: 7.5, color: GREY, width });
  y = put(doc, view.cuir, MARGIN, y + 1, { font: F.bold, size: 12.5, width });

  // The state, as a coloured badge.
  const { label, color } = ESTADO[view.estado_receta];
  doc.font(F.bold).fontSize(12);
  const badgeWidth = doc.widthOfString(label) + 16;
  const badgeY = y + 10;
  doc.roundedRect(MARGIN, badgeY, badgeWidth, 22, 3).lineWidth(1.5).strokeColor(color).stroke();
  put(doc, label, MARGIN + 8, badgeY + 5, { font: F.bold, size: 12, color, width: badgeWidth });
  const estadoStyle = { size: 8, color: GREY, width: 200 };
  put(doc, 'Estado de la receta', MARGIN + badgeWidth + 8, badgeY + 7, estadoStyle);

  const qrX = snap(MARGIN + CONTENT - QR_SIZE);
  drawQrCode(doc, view.verification_url, { x: qrX, y: snap(MARGIN), size: QR_SIZE });
  const qrStyle = { size: 7, color: GREY, width: QR_SIZE, align: 'center' as const };
  put(doc, 'Escanee para verificar', qrX, MARGIN + QR_SIZE + 4, qrStyle);
  return Math.max(badgeY + 22, MARGIN + QR_SIZE + 14);
}

function barcode(doc: Doc, cuir: string, top: number): number {
  const y = snap(top + 14);
  const at = { x: MARGIN, width: CONTENT, y, moduleWidth: CODE128_MODULE, height: CODE128_HEIGHT };
  drawCode128(doc, cuir, at);
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
  const rest = [`Afiliado ${c.numero_afiliado}`, c.plan, c.codigo_rnos && `RNOS ${c.codigo_rnos}`];
  return `${c.financiador}\n${rest.filter(Boolean).join(' · ')}`;
}

type Field = [label: string, value: string, lines?: number] | false | '' | null | undefined;

/**
 * Three narrow columns (when and where; who it is for and who pays; who prescribed and why)
 * leave the items table the height ten fully described items need.
 */
function details(doc: Doc, view: RecetaPdfView, top: number): number {
  const gap = 14;
  const w = (CONTENT - 2 * gap) / 3;
  const column = (i: number, fields: Field[]) =>
    fields.reduce(
      (y, f) => (f ? field(doc, f[0], f[1], MARGIN + i * (w + gap), y, w, f[2]) : y),
      top,
    );
  const { code, name } = view.jurisdiccion;
  const y = Math.max(
    column(0, [
      ['Fecha de emisión', `${fechaHoraAr(view.fecha_creacion)} (hora de Argentina)`],
      ['Vigencia', `del ${fechaAr(view.vigencia_desde)} al ${fechaAr(view.vigencia_hasta)}`],
      ['Lugar de atención', view.locacion, 3],
    ]),
    column(1, [
      ['Paciente', pacienteText(view), 4],
      view.cobertura && ['Cobertura', coberturaText(view.cobertura), 4],
    ]),
    column(2, [
      view.profesional_nombre && ['Profesional', view.profesional_nombre],
      ['Matrícula', view.matricula_profesional],
      ['Jurisdicción de la matrícula', name ? `${code} ${name}` : code],
      view.diagnostico_codigo && ['Diagnóstico (CIE-10)', view.diagnostico_codigo, 1],
    ]),
  );
  return view.anulacion ? anulacion(doc, view.anulacion, y + 2) : y;
}

function anulacion(doc: Doc, a: { at: string; motivo: string }, top: number): number {
  const width = CONTENT - 16;
  const when = `ANULADA el ${fechaHoraAr(a.at)} (hora de Argentina)`;
  let y = put(doc, when, MARGIN + 8, top + 6, { font: F.bold, size: 10, color: RED, width });
  y = put(doc, `Motivo: ${a.motivo}`, MARGIN + 8, y + 2, { size: 9, color: RED, width, lines: 3 });
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
  const label = { size: 7, color: GREY };
  let y = put(doc, 'Huella SHA-256 del contenido registrado', MARGIN, top + 6, label);
  y = put(doc, view.content_sha256, MARGIN, y + 1, { size: 8 });
  y = put(doc, 'Verificación en línea', MARGIN, y + 5, label);
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
  y = put(doc, 'Medicamentos prescriptos', MARGIN, y + 4, { font: F.bold, size: 11 }) + 4;
  const bottom = footer(doc, view);
  drawItemsTable(doc, view.items, { x: MARGIN, y, width: CONTENT, height: bottom - 10 - y }, F);
  if (view.estado_receta === 'ANULADA') anuladaMark(doc);

  // The layout never adds a page; if it ever did, that is a bug to see, not a PDF to send.
  const pages = doc.bufferedPageRange().count;
  doc.end();
  await ended;
  if (pages !== 1) throw new Error(`receta PDF laid out on ${pages} pages`);
  return Buffer.concat(chunks);
}
