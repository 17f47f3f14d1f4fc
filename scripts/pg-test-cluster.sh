#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and the bench (Debian's postgresql binaries).
#
#   scripts/pg-test-cluster.sh start   # prints OA_PG_URL=postgres://...; state in $OA_PG_DIR
#   scripts/pg-test-cluster.sh stop    # stops the cluster and removes its directory
#
# The cluster lives in a temp directory (OA_PG_DIR, default /tmp/oa-pg-cluster-<uid>), listens on
# 127.0.0.1 on a free port, trusts local connections (a test cluster: never use it for data),
# and runs as an unprivileged user (initdb refuses root: as root, the `postgres` user, else
# `nobody`, through runuser). `start` is idempotent: a running cluster's URL is printed again.
set -euo pipefail
DIR="${OA_PG_DIR:-/tmp/oa-pg-cluster-$(id -u)}"
BIN="$(dirname "$(readlink -f "$(command -v initdb 2>/dev/null || echo /usr/lib/postgresql/15/bin/initdb)")")"
[ -x "$BIN/initdb" ] || BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    local user=postgres
    id "$user" >/dev/null 2>&1 || user=nobody
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

url() { echo "postgres://openarmature@127.0.0.1:$(cat "$DIR/port")/openarmature"; }

case "${1:-}" in
  start)
    if [ -f "$DIR/port" ] && as_owner "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
      echo "OA_PG_URL=$(url)"; exit 0
    fi
    rm -rf "$DIR"; mkdir -p "$DIR"
    [ "$(id -u)" = 0 ] && chown "$(id -u postgres 2>/dev/null || id -u nobody)" "$DIR"
    PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
    echo "$PORT" > "$DIR/port.tmp" && mv "$DIR/port.tmp" "$DIR/port"
    chmod a+r "$DIR/port"
    as_owner "$BIN/initdb" -D "$DIR/data" -U openarmature --auth=trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 \
      || { cat "$DIR/initdb.log" >&2; exit 1; }
    as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/data/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DIR -c max_connections=200 -c fsync=on" start >/dev/null \
      || { cat "$DIR/data/server.log" >&2; exit 1; }
    as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U openarmature openarmature
    echo "OA_PG_URL=$(url)"
    ;;
  stop)
    if [ -d "$DIR/data" ]; then as_owner "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$DIR"
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
