import { randomFillSync } from 'node:crypto';

/** Filled 4 KiB at a time: ~250 registrations' IVs and salts per system call. */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * `randomBytes(n)` drawn from a pool refilled a page at a time (a call per draw cost more than
 * the AES seal itself); each answer is a copy, and no byte is handed out twice.
 */
export function randomBytesPooled(n: number): Buffer {
  if (n > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} bytes`);
  if (offset + n > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + n));
  offset += n;
  return out;
}
