#!/usr/bin/env bash
# Server push through two instances on PostgreSQL (bench/push.py starts its own servers): a new
# live-chat request reaching the staff panel, chat messages shopper -> staff and staff ->
# shopper (p50/p95), and RSS and CPU with 1,000 idle event streams.
set -euo pipefail
# shellcheck source=../lib.sh
source "$BENCH_DIR/lib.sh"
python3 "$BENCH_DIR/push.py" --bin "$SHOP_BIN" --port $((BENCH_PORT_BASE + 20)) >"$BENCH_TMP/push.rows"
while IFS=$'\t' read -r a b c d; do row "$a" "$b" "$c" "$d"; done <"$BENCH_TMP/push.rows"
