#!/usr/bin/env bash
# `just bench`: builds the release server, starts it on a fresh demo database, runs every
# measurement in bench/measure/ (in name order) and prints one table of the results.
#
# Adding a measurement: drop an executable bench/measure/NN-name.sh. It runs with the
# environment below and writes its rows with `row NAME VALUE TARGET VERDICT` (from lib.sh);
# it may start more servers of its own (ports from BENCH_PORT_BASE + 10 upwards).
#   SHOP_URL     the running shop (release build, demo catalog, SQLite), e.g. http://127.0.0.1:18401
#   SHOP_PID     its process id (for RSS)
#   SHOP_BIN     the release binary; SHOP_DATA its data directory
#   BENCH_DIR    this directory; BENCH_TMP a scratch directory removed at the end
#   BENCH_PORT_BASE  first port of the range the measurements may use
# BENCH_ONLY=pattern runs only the measurements whose file name matches.
# The push and checkout measurements need PostgreSQL (TEST_POSTGRES_URL, default
# postgres://postgres@127.0.0.1:5432/postgres); each makes and drops a database of its own.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH_DIR")"
export BENCH_DIR
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
export BENCH_PORT_BASE="${BENCH_PORT_BASE:-18400}"
export BENCH_TMP="$(mktemp -d)"
export BENCH_ROWS="$BENCH_TMP/rows.tsv"
: >"$BENCH_ROWS"
# shellcheck source=lib.sh
source "$BENCH_DIR/lib.sh"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

echo "=== building: release server, the bare yardstick, the frontend" >&2
(cd "$ROOT" && cargo build --release --quiet --bin garden-shop --example bare_products)
(cd "$ROOT/frontend" && npm run build --silent >/dev/null)
if [ ! -x "$BENCH_DIR/node_modules/.bin/lighthouse" ]; then
    (cd "$BENCH_DIR" && npm install --no-audit --no-fund --silent)
fi
export SHOP_BIN="$CARGO_TARGET_DIR/release/garden-shop"
export BARE_BIN="$CARGO_TARGET_DIR/release/examples/bare_products"

SHOP_PORT=$((BENCH_PORT_BASE + 1))
export SHOP_DATA="$BENCH_TMP/shop"
mkdir -p "$SHOP_DATA"
export SHOP_URL="http://127.0.0.1:$SHOP_PORT"

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$BENCH_TMP"
}
trap cleanup EXIT

# Logging as shipped (info), unless RUST_LOG says otherwise.
echo "=== starting the shop on $SHOP_URL (release, demo catalog, SQLite)" >&2
(
    cd "$ROOT"
    SHOP_ENV=development \
        SHOP__SERVER__PORT="$SHOP_PORT" \
        SHOP__SERVER__STATIC_DIR="$ROOT/frontend/dist" \
        SHOP__SITE__PUBLIC_URL="$SHOP_URL" \
        SHOP__MEDIA__ROOT="$SHOP_DATA/media" \
        SHOP__MAIL__OUTBOX_DIR="$SHOP_DATA/outbox" \
        DATABASE_URL="sqlite://$SHOP_DATA/shop.db?mode=rwc" \
        exec "$SHOP_BIN"
) >"$BENCH_TMP/shop.log" 2>&1 &
export SHOP_PID=$!
pids+=("$SHOP_PID")
wait_for "$SHOP_URL/api/health"

status=0
for measure in "$BENCH_DIR"/measure/*.sh; do
    name="$(basename "$measure")"
    if [ -n "${BENCH_ONLY:-}" ] && [[ "$name" != *${BENCH_ONLY}* ]]; then continue; fi
    echo "=== $name" >&2
    bash "$measure" || { echo "$name failed" >&2; status=1; }
done

echo
echo "Garden Shop benchmarks ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ))"
{
    printf 'MEASUREMENT\tVALUE\tTARGET\tVERDICT\n'
    cat "$BENCH_ROWS"
} | column -t -s $'\t'
exit $status
