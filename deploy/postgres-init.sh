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
