import { createHmac } from 'node:crypto';

/** A key derived from API_SECRET_PEPPER per `label`; never change it (every key would change). */
export function claveDerivada(pepper: string, label: string): Buffer {
  return createHmac('sha256', pepper).update(label).digest();
}
