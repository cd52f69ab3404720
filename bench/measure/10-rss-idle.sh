#!/usr/bin/env bash
# Resident memory of the freshly started shop after a few idle seconds (background loops running).
set -euo pipefail
source "$BENCH_DIR/lib.sh"
curl -fsS -o /dev/null "$SHOP_URL/api/products"
sleep "${BENCH_IDLE_SECONDS:-8}"
mb=$(rss_mb "$SHOP_PID")
row "RSS idle" "$mb MB" "< 40 MB" "$(verdict "$mb" 40 'a < b')"
