-- Run once by the postgres image when its volume is new (docker-compose.yml): the service's own
-- login, which owns nothing (SPEC 11.1). The migrations run as the image's user (`registry`,
-- DATABASE_MIGRATION_URL) and grant this role what the service needs at every start.
CREATE ROLE registry_app LOGIN PASSWORD 'registry_app' NOSUPERUSER NOCREATEDB NOCREATEROLE;
