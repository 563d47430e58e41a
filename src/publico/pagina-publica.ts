import { createHash } from 'node:crypto';
import { fechaHoraAr } from '../common/fecha-argentina.js';
import type { VerificacionPublicaDto } from './dto/verificacion-publica.dto.js';

/**
 * The public verification page (contract §9.4): small HTML in Spanish, readable on a phone, no
 * script, image or external resource; every value escaped.
 */

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:1rem;max-width:40rem;color:#111;line-height:1.4}
h1{font-size:1.25rem;margin:0 0 .5rem}.estado{display:inline-block;padding:.2rem .6rem;border-radius:.3rem;font-weight:600;background:#e6f4ea}
.estado.ANULADA,.estado.VENCIDA{background:#fde8e8}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem .75rem}
dt{font-weight:600}table{border-collapse:collapse;width:100%;margin-top:.5rem}th,td{text-align:left;padding:.35rem;border-bottom:1px solid #ddd}
code{word-break:break-all;font-size:.8rem}footer{margin-top:1rem;font-size:.8rem;color:#555}`;

/** The answer's Content-Security-Policy: nothing may load or run; only this page's style. */
export const CSP_PAGINA_PUBLICA = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ESTADO: Record<string, string> = {
  VIGENTE: 'Vigente',
  DISPENSADA_PARCIAL: 'Dispensada parcialmente',
  DISPENSADA: 'Dispensada',
  VENCIDA: 'Vencida',
  ANULADA: 'Anulada',
};

const escape = (s: string | number): string =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** `2026-11-22` → `22/11/2026`. */
const fecha = (isoDate: string): string => isoDate.slice(0, 10).split('-').reverse().join('/');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

/** The generic name and concentration under the item's name, when given. */
const generico = (i: { dci?: string; concentracion?: string }): string => {
  const text = [i.dci, i.concentracion].filter(Boolean).join(' ');
  return text ? `<br><small>${escape(text)}</small>` : '';
};

export function paginaPublica(v: VerificacionPublicaDto): string {
  const profesional = v.profesional_nombre
    ? `${escape(v.profesional_nombre)} (matrícula ${escape(v.matricula_profesional)})`
    : `Matrícula ${escape(v.matricula_profesional)}`;
  const filas = v.items
    .map(
      (i) =>
        `<tr><td>${escape(i.item)}</td><td>${escape(i.nombre)}${generico(i)}</td><td>${escape(i.dispensado)} de ${escape(i.cantidad)}</td></tr>`,
    )
    .join('');
  return page(
    'Verificación de receta',
    `<h1>Receta registrada</h1>
<p>Esta receta electrónica está registrada en este repositorio.</p>
<p><span class="estado ${escape(v.estado_receta)}">${escape(ESTADO[v.estado_receta] ?? v.estado_receta)}</span></p>
<dl>
<dt>CUIR</dt><dd><code>${escape(v.cuir)}</code></dd>
<dt>Emitida</dt><dd>${escape(fechaHoraAr(v.fecha_creacion))} (hora de Argentina)</dd>
<dt>Vigencia</dt><dd>del ${escape(fecha(v.vigencia_desde))} al ${escape(fecha(v.vigencia_hasta))}</dd>
<dt>Prescriptor</dt><dd>${profesional}</dd>
<dt>Jurisdicción</dt><dd>${escape(v.jurisdiccion_nombre || v.jurisdiccion)}</dd>
</dl>
<table><thead><tr><th>#</th><th>Medicamento</th><th>Dispensado</th></tr></thead><tbody>${filas}</tbody></table>
<footer>Huella del contenido registrado (SHA-256): <code>${escape(v.content_sha256)}</code></footer>`,
  );
}

/** One page for every refusal (unknown CUIR, wrong link, too many views): it tells nothing more. */
export function paginaNoEncontrada(status: number): string {
  return status === 429
    ? page(
        'Demasiadas consultas',
        '<h1>Demasiadas consultas</h1><p>Intente nuevamente en un minuto.</p>',
      )
    : page(
        'Receta no encontrada',
        '<h1>Receta no encontrada</h1><p>El enlace no corresponde a una receta registrada en este repositorio. Verifique que lo haya copiado completo.</p>',
      );
}
