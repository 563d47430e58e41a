import { Extensions1763800000000 } from './1763800000000-Extensions.js';
import { ApiClients1763800001000 } from './1763800001000-ApiClients.js';
import { IssuedCuirs1763800002000 } from './1763800002000-IssuedCuirs.js';
import { Recetas1763800003000 } from './1763800003000-Recetas.js';
import { MedicamentosMirror1763800004000 } from './1763800004000-MedicamentosMirror.js';
import { VerificationAndWebhooks1763800005000 } from './1763800005000-VerificationAndWebhooks.js';

/** Every migration, in order. Listed explicitly so the build, the tests and the CLI agree. */
export const MIGRATIONS = [
  Extensions1763800000000,
  ApiClients1763800001000,
  IssuedCuirs1763800002000,
  Recetas1763800003000,
  MedicamentosMirror1763800004000,
  VerificationAndWebhooks1763800005000,
];
