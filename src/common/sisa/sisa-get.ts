import type { HttpService } from '@nestjs/axios';
import { isAxiosError } from 'axios';
import { firstValueFrom } from 'rxjs';
import { UpstreamFailure } from '../resilience/upstream-failure.js';
import { decodeSisaAnswer, SisaRecord } from './sisa-answer.js';

interface SisaCall {
  system: string;
  baseUrl: string;
  /** e.g. `/sisa/services/rest/profesional/obtener` */
  path: string;
  params: Record<string, string>;
  credentials: { usuario: string; clave: string };
  signal: AbortSignal;
}

/** A registry record is a few kB; anything near this is not a SISA answer. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * One GET to a SISA service, decoded. Its credentials go in the query string, so no error raised
 * here carries the axios error (its config holds the URL): only a short code leaves.
 */
export async function sisaGet(http: HttpService, call: SisaCall): Promise<SisaRecord | null> {
  let res;
  try {
    res = await firstValueFrom(
      http.get<string>(new URL(call.path, call.baseUrl).toString(), {
        params: {
          ...call.params,
          usuario: call.credentials.usuario,
          clave: call.credentials.clave,
        },
        // SISA answers XML by default; JSON must be asked for (XML is still decoded if it comes).
        headers: { Accept: 'application/json' },
        responseType: 'text',
        transformResponse: (data: unknown) => data,
        validateStatus: () => true,
        maxRedirects: 0,
        maxContentLength: MAX_BODY_BYTES,
        signal: call.signal,
      }),
    );
  } catch (err) {
    const code =
      isAxiosError(err) && err.code && /^[A-Z_]{1,30}$/.test(err.code) ? err.code : 'NETWORK';
    throw new UpstreamFailure(call.system, code, true);
  }
  // The body is sniffed, not its Content-Type.
  return decodeSisaAnswer(call.system, {
    status: res.status,
    body: typeof res.data === 'string' ? res.data : '',
  });
}
