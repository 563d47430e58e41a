import type { GuardStatement } from '../common/sql/sql-params.js';

/**
 * CUIR ownership (contract §3) as a guard for the statement that registers the CUIR: a row
 * unless `cuir_owners` says the CUIR was issued to this client by /v1/cuir/generar — never
 * issued, or issued to another client — so the registration writes nothing and answers 422
 * CUIR_NOT_OWNED, in its own statement, at no extra round trip (a primary-key probe). Part of
 * the surface bench/ may read.
 */
export const notIssuedToClientSql =
  (clientId: string, cuir: string): GuardStatement =>
  (p) =>
    `SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM cuir_owners WHERE cuir = ${p.add(cuir)} AND client_id = ${p.add(clientId)}::uuid)`;
