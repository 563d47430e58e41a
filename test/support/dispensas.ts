import request from 'supertest';
import type { TestClient } from './clients.js';
import type { TestApp } from './test-app.js';

/** A pharmacy's CUIT with a valid check digit (and one without). */
export const CUIT = '30712345671';
export const BAD_CUIT = '30712345672';

/** The pharmacy profile: verify by CUIR, reserve, dispense, reverse. */
export const PHARMACY_SCOPES = ['recetas:verify', 'dispensas:write'] as const;

/** A dispensation of `items` ([item, cantidad]) now, by Farmacia Central. */
export function dispensaBody(
  cuir: string,
  items: Array<[number, number] | Record<string, unknown>>,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    cuir,
    farmacia: { cuit: CUIT, nombre: 'Farmacia Central' },
    fecha_dispensa: new Date().toISOString(),
    items: items.map((i) => (Array.isArray(i) ? { item: i[0], cantidad: i[1] } : i)),
    ...over,
  };
}

export function dispensasApi(t: () => TestApp) {
  const url = () => t().url;
  return {
    dispensar: (c: TestClient, body: unknown, headers: Record<string, string> = {}) =>
      request(url())
        .post('/v1/dispensas')
        .set(c.headers)
        .set(headers)
        .send(body as object),
    reservar: (c: TestClient, cuir: string, headers: Record<string, string> = {}) =>
      request(url()).post('/v1/dispensas/reservas').set(c.headers).set(headers).send({ cuir }),
    liberar: (c: TestClient, id: string) =>
      request(url()).delete(`/v1/dispensas/reservas/${id}`).set(c.headers),
    revertir: (
      c: TestClient,
      id: string,
      motivo = 'Registrada por error',
      headers: Record<string, string> = {},
    ) =>
      request(url())
        .post(`/v1/dispensas/${id}/revertir`)
        .set(c.headers)
        .set(headers)
        .send({ motivo }),
    obtener: (c: TestClient, id: string) =>
      request(url()).get(`/v1/dispensas/${id}`).set(c.headers),
    verificar: (c: TestClient, cuir: string) =>
      request(url()).get(`/v1/recetas/verificar/${cuir}`).set(c.headers),
    anular: (
      c: TestClient,
      id: string,
      motivo = 'Error en la dosis prescripta',
      headers: Record<string, string> = {},
    ) =>
      request(url()).post(`/v1/recetas/${id}/anular`).set(c.headers).set(headers).send({ motivo }),
    detalle: (c: TestClient, id: string) => request(url()).get(`/v1/recetas/${id}`).set(c.headers),
  };
}

/** Today's date in Argentina time (UTC−03:00), plus `days`. */
export function arDate(days = 0): string {
  return new Date(Date.now() - 3 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}
