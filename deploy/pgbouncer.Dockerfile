# docker-compose's `pgbouncer`: PgBouncer as Debian ships it (1.18, the version bench-nodes and
# tests/test_pgbouncer.py run), configured by deploy/pgbouncer.ini (mounted), as `postgres`.
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends pgbouncer \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o postgres -g postgres /run/pgbouncer
COPY pgbouncer-start.sh /usr/local/bin/pgbouncer-start
USER postgres
EXPOSE 6432
CMD ["sh", "/usr/local/bin/pgbouncer-start"]
