#!/bin/sh
# Run once by the postgres image on a new data directory (/docker-entrypoint-initdb.d), as the
# image's superuser: the tables' owner is an ordinary role, never a superuser. It may create
# roles (grant_service_role makes the service's `sejmi_app` and its grants) and owns the
# database; it cannot switch off what binds everyone, nor read other databases.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "${POSTGRES_DB:-postgres}" \
  --set owner="$OWNER_USER" --set password="$OWNER_PASSWORD" --set db="$OWNER_DB" <<'SQL'
CREATE ROLE :"owner" LOGIN PASSWORD :'password' NOSUPERUSER NOCREATEDB CREATEROLE;
CREATE DATABASE :"db" OWNER :"owner";
SQL

# With REPLICATION_USER set (docker-compose's postgres-replica, docs/PRODUCTION.md "Read
# replicas"): a role that may only stream WAL, its password-checked replication connections,
# and a physical slot, so the primary keeps the WAL a replica has not received yet (drop the
# slot, pg_drop_replication_slot, when its replica is gone for good, or WAL piles up).
if [ -n "${REPLICATION_USER:-}" ]; then
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "${POSTGRES_DB:-postgres}" \
    --set user="$REPLICATION_USER" --set password="$REPLICATION_PASSWORD" \
    --set slot="${REPLICATION_SLOT:-replica1}" <<'SQL'
CREATE ROLE :"user" LOGIN REPLICATION PASSWORD :'password';
SELECT pg_create_physical_replication_slot(:'slot');
SQL
  # "all" in pg_hba.conf never matches replication connections: a line of their own.
  echo "host replication $REPLICATION_USER all scram-sha-256" >> "$PGDATA/pg_hba.conf"
fi
