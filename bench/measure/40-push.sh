#!/usr/bin/env bash
# Server push: chat message-to-screen latency through two instances on PostgreSQL (p50/p95),
# and RSS and CPU with 1,000 idle event streams (bench/push.py starts its own servers).
set -euo pipefail
# shellcheck source=../lib.sh
source "$BENCH_DIR/lib.sh"
python3 "$BENCH_DIR/push.py" --bin "$SHOP_BIN" | tee "$BENCH_TMP/push.txt" >&2
