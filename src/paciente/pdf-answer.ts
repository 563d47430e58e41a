import { StreamableFile } from '@nestjs/common';
import type { ApiResponseOptions } from '@nestjs/swagger';

/** A PDF answer, shown in the browser rather than downloaded, named after the CUIR. */
export const pdfAnswer = (pdf: Buffer, cuir: string): StreamableFile =>
  new StreamableFile(pdf, {
    type: 'application/pdf',
    disposition: `inline; filename="receta-${cuir}.pdf"`,
    length: pdf.length,
  });

export const PDF_RESPONSE: ApiResponseOptions = {
  description: 'The prescription as one A4 PDF page',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};

export const PDF_BUSY =
  'SERVICE_UNAVAILABLE: every document renderer is busy and the short queue is full (PDF_RENDERS_MAX rendering, PDF_RENDERS_QUEUE waiting), or the instance is not ready or shutting down; retry after Retry-After seconds';
