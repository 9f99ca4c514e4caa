#!/bin/sh
# docker-compose's postgres-replica: a hot standby streaming from the primary. On an empty data
# directory it first takes a base backup of the primary through the replication slot
# deploy/postgres-init.sh made (pg_basebackup -R writes standby.signal and primary_conninfo);
# then the image's own entrypoint runs PostgreSQL on it, read-only. Runs as the postgres user.
set -eu
# The standby's WAL receiver reconnects with this password after every restart (the file is
# written anew each start: it lives outside the data volume).
export PGPASSFILE=/var/lib/postgresql/.pgpass
printf '%s:5432:*:%s:%s\n' "$PRIMARY_HOST" "$REPLICATION_USER" "$REPLICATION_PASSWORD" \
  > "$PGPASSFILE"
chmod 600 "$PGPASSFILE"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -q -h "$PRIMARY_HOST" -U "$REPLICATION_USER"; do sleep 1; done
  pg_basebackup -h "$PRIMARY_HOST" -U "$REPLICATION_USER" -D "$PGDATA" -R -X stream \
    -S "$REPLICATION_SLOT" -c fast
  chmod 700 "$PGDATA"
fi
exec docker-entrypoint.sh postgres
