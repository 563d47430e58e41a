import type { GuardStatement } from '../common/sql/sql-params.js';

/**
 * The ledger half of CUIR ownership (contract §3) as a guard for the statement that registers the
 * CUIR: a row when the CUIR was first issued to another client, so the registration writes
 * nothing and answers 422 CUIR_NOT_OWNED — in its own statement, at no extra round trip. Part
 * of the surface bench/ may read.
 */
export const issuedToAnotherSql =
  (clientId: string, cuir: string): GuardStatement =>
  (p) =>
    `SELECT 1 FROM cuir_owners WHERE cuir = ${p.add(cuir)} AND client_id <> ${p.add(clientId)}::uuid`;
