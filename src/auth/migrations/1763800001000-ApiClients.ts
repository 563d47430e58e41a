import { MigrationInterface, QueryRunner } from 'typeorm';

/** API clients (provider platforms) and the shared rate-limit counters. */
export class ApiClients1763800001000 implements MigrationInterface {
  name = 'ApiClients1763800001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_clients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        key text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        next_secret_hash text,
        scopes text[] NOT NULL DEFAULT '{}',
        rate_limit_per_minute integer NOT NULL DEFAULT 600 CHECK (rate_limit_per_minute > 0),
        cuir_uniqueness boolean NOT NULL DEFAULT true,
        cuir_rules boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX api_clients_name_active ON api_clients (name) WHERE active`);
    // Counters shared by every instance when RATE_LIMIT_STORE=postgres, in the layout
    // rate-limiter-flexible expects (it is told the table exists). Unlogged: losing counts in
    // a crash is harmless, and it saves WAL on every request.
    await q.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_limits');
    await q.query('DROP TABLE api_clients');
  }
}
