#!/usr/bin/env bash
# Resident memory after the load of the measurements before it, once it has settled.
set -euo pipefail
source "$BENCH_DIR/lib.sh"
sleep 3
mb=$(rss_mb "$SHOP_PID")
row "RSS after the product-list load" "$mb MB" "-" "-"
