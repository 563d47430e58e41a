import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  type KeyObject,
} from 'node:crypto';
import { randomBytesPooled } from '../../common/crypto/random-pool.js';

/**
 * The patient's data at rest (SPEC 10): AES-256-GCM under a named key, found by a keyed blind
 * index. A sealed value is one bytea: version (1) | key id length n | key id (n ASCII bytes) |
 * IV (12) | GCM tag (16) | ciphertext. Its additional data `<column>:<cuir>` binds it to its
 * column and prescription: copied elsewhere, it does not open.
 */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes of the blind index kept: 128 bits (the index orders 16-byte values, not 32). */
const INDICE_BYTES = 16;

export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const KEY_BYTES = 32;

/** The data keys: the first seals, every one opens what it sealed. */
export interface ClavesDatos {
  actual: string;
  claves: ReadonlyMap<string, Buffer>;
}

/** A value sealed under a key PATIENT_DATA_KEYS does not hold, or altered: fails loudly. */
export class DatoPacienteIlegible extends Error {}

/** `kid1:<base64 of 32 bytes>,kid0:<base64>` → the keys, or the problems (never naming a key). */
export function parseClaves(text: string): { claves?: ClavesDatos; problems: string[] } {
  const problems: string[] = [];
  const claves = new Map<string, Buffer>();
  let actual: string | undefined;
  for (const [i, entry] of text.split(',').entries()) {
    const sep = entry.indexOf(':');
    const kid = sep < 0 ? '' : entry.slice(0, sep).trim();
    const b64 = sep < 0 ? '' : entry.slice(sep + 1).trim();
    if (!KEY_ID_PATTERN.test(kid)) {
      problems.push(
        `entry ${i + 1}: must be <key id>:<base64 key>, the id 1-32 of A-Z a-z 0-9 _ -`,
      );
      continue;
    }
    const key = Buffer.from(b64, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || key.length !== KEY_BYTES) {
      problems.push(`key ${kid}: must be ${KEY_BYTES} random bytes in base64`);
      continue;
    }
    if (claves.has(kid)) problems.push(`key ${kid}: listed twice`);
    claves.set(kid, key);
    actual ??= kid;
  }
  return problems.length || !actual ? { problems } : { claves: { actual, claves }, problems };
}

/** Each key's KeyObject, made once: built anew per call, it was most of a seal's cost. */
const keyObjects = new WeakMap<Buffer, KeyObject>();
const keyObject = (key: Buffer): KeyObject => {
  let k = keyObjects.get(key);
  if (!k) keyObjects.set(key, (k = createSecretKey(key)));
  return k;
};

const aad = (campo: string, cuir: string) => Buffer.from(`${campo}:${cuir}`, 'utf8');

/** Seals `plano` under the current key, bound to the prescription `cuir` and its column. */
export function sellar(claves: ClavesDatos, campo: string, cuir: string, plano: string): Buffer {
  const kid = Buffer.from(claves.actual, 'ascii');
  const iv = randomBytesPooled(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyObject(claves.claves.get(claves.actual)!), iv);
  cipher.setAAD(aad(campo, cuir));
  const body = Buffer.concat([cipher.update(plano, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION, kid.length]), kid, iv, cipher.getAuthTag(), body]);
}

/** The key id a sealed value names (without opening it). */
export function claveDe(sellado: Buffer): string {
  if (sellado.length < 2 || sellado[0] !== VERSION)
    throw new DatoPacienteIlegible('a sealed patient value of an unknown format');
  return sellado.subarray(2, 2 + sellado[1]).toString('ascii');
}

/** Opens a sealed value; throws DatoPacienteIlegible for an unknown key or altered bytes. */
export function abrir(claves: ClavesDatos, campo: string, cuir: string, sellado: Buffer): string {
  const kid = claveDe(sellado);
  const key = claves.claves.get(kid);
  if (!key)
    throw new DatoPacienteIlegible(
      `patient data sealed under key "${kid}", which PATIENT_DATA_KEYS does not hold`,
    );
  const start = 2 + sellado[1];
  const iv = sellado.subarray(start, start + IV_BYTES);
  const tag = sellado.subarray(start + IV_BYTES, start + IV_BYTES + TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyObject(key), iv);
    decipher.setAAD(aad(campo, cuir));
    decipher.setAuthTag(tag);
    const body = sellado.subarray(start + IV_BYTES + TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new DatoPacienteIlegible(
      `patient data of ${cuir} does not open under key "${kid}": the key is not the one that sealed it, or the value was altered`,
    );
  }
}

/**
 * A sealed document's plaintext (SPEC 11.2): the DNI and, after a `:`, the content hash's salt
 * in base64 (never stored in clear). Rows sealed before hold the DNI alone.
 */
export function documentoConSal(documento: string, sal: Buffer | null): string {
  return sal === null ? documento : `${documento}:${sal.toString('base64')}`;
}

/** documentoConSal's inverse: the DNI, and the salt (null when the value holds none). */
export function documentoYSal(plano: string): { documento: string; sal: Buffer | null } {
  const sep = plano.indexOf(':');
  return sep < 0
    ? { documento: plano, sal: null }
    : { documento: plano.slice(0, sep), sal: Buffer.from(plano.slice(sep + 1), 'base64') };
}

/** The blind index of a DNI: HMAC-SHA256 under its own key, of the digits, cut to 128 bits. */
export function indiceDocumento(clave: Buffer, documento: string): Buffer {
  return createHmac('sha256', keyObject(clave))
    .update(`dni:${documento.replaceAll('.', '')}`)
    .digest()
    .subarray(0, INDICE_BYTES);
}

export { claveDerivada } from '../../common/crypto/clave-derivada.js';

export const LABEL_INDICE = 'prescription-registry/indice-documento/v1';
export const LABEL_DATOS = 'prescription-registry/datos-paciente/v1';
/** The id of the key derived from the pepper when PATIENT_DATA_KEYS is unset (not production). */
export const KID_DERIVADA = 'pepper';
