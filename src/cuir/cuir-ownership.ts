/**
 * Which CUIRs a client may register (contract §3): its platform digits must be the
 * client's prescribing-platform id and its repository digits this service's. Pure: the
 * ledger half of the rule (not issued to another client) is cuir-ownership.sql.ts's guard.
 */
import { CUIR_LAYOUT } from './cuir-format.js';

export interface CuirIds {
  platformId: string;
  repositoryId: string;
}

const span = (field: 'platform' | 'repository'): [number, number] => {
  let start = 0;
  for (const part of CUIR_LAYOUT) {
    if (part.field === field) return [start, start + part.length];
    start += part.length;
  }
  throw new Error(`no CUIR component ${field}`);
};
const PLATFORM = span('platform');
const REPOSITORY = span('repository');

/** Why `cuir` is not the caller's to register, or null when its digits are. */
export function cuirDigitsProblem(cuir: string, ids: CuirIds): string | null {
  const platform = cuir.slice(...PLATFORM);
  if (platform !== ids.platformId) {
    return `platform digits ${platform} are not this client's platform id ${ids.platformId}`;
  }
  const repository = cuir.slice(...REPOSITORY);
  if (repository !== ids.repositoryId) {
    return `repository digits ${repository} are not this repository's id ${ids.repositoryId}`;
  }
  return null;
}
