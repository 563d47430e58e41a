/**
 * A CUIR's issuance (contract §3) as ONE statement: the owner row claimed (or the existing one
 * locked and read: ON CONFLICT DO UPDATE), the ledger row written only when the owner is the
 * caller; a second issuance under the uniqueness policy fails on the ledger's partial unique
 * index and takes the claim back with it. One row: `owned`.
 */
export const ISSUE_CUIR_SQL = `WITH claimed AS (
    INSERT INTO cuir_owners (cuir, client_id) VALUES ($1, $2::uuid)
    ON CONFLICT (cuir) DO UPDATE SET cuir = EXCLUDED.cuir
    RETURNING client_id
  ), issued AS (
    INSERT INTO issued_cuirs (client_id, cuir, platform, repository, jurisdiction,
                              prescription_type, medication_type, group_id, item_id,
                              uniqueness_enforced)
    SELECT client_id, $1, $3, $4, $5, $6, $7, $8, $9, $10 FROM claimed WHERE client_id = $2::uuid
    RETURNING 1
  )
SELECT EXISTS (SELECT 1 FROM issued) AS owned`;
