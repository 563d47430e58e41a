import type { GuardStatement } from '../common/sql/sql-params.js';

/**
 * Guard for the statement that registers the CUIR (contract §3): a row unless `cuir_owners` says
 * it was issued to this client, so the registration writes nothing and answers 422 CUIR_NOT_OWNED.
 */
export const notIssuedToClientSql =
  (clientId: string, cuir: string): GuardStatement =>
  (p) =>
    `SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM cuir_owners WHERE cuir = ${p.add(cuir)} AND client_id = ${p.add(clientId)}::uuid)`;
