#!/bin/sh
# docker-compose's pgbouncer: write the userlist from the environment, then run PgBouncer in
# the foreground (its log on stderr). The password is kept in plain text there: with it
# PgBouncer checks the client's SCRAM and logs in to PostgreSQL with SCRAM itself.
set -eu
umask 077
printf '"%s" "%s"\n' "$APP_DB_USER" "$APP_DB_PASSWORD" > /run/pgbouncer/userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
