#!/usr/bin/env bash
# The checkout rush on PostgreSQL: 200 shoppers at once for 10 in stock, 5 rounds
# (crates/app/benches/checkout_concurrency.rs, the release profile; it asserts that every round
# sold exactly the stock and refused the rest with 409, and fails otherwise).
set -euo pipefail
source "$BENCH_DIR/lib.sh"
(cd "$BENCH_DIR/.." && cargo bench --quiet -p garden-app --bench checkout_concurrency) \
    >"$BENCH_TMP/checkout.txt" 2>"$BENCH_TMP/checkout.log" ||
    { echo "the checkout rush failed" >&2; tail -20 "$BENCH_TMP/checkout.log" >&2; exit 1; }
sed 's/^/  /' "$BENCH_TMP/checkout.txt" >&2
read -r p50 p99 < <(awk '/latency p50/ { gsub(",", ""); print $3, $6 }' "$BENCH_TMP/checkout.txt")
sold=$(awk '/every round sold exactly/ { gsub(",", ""); print $5 }' "$BENCH_TMP/checkout.txt")
row "checkout rush (PostgreSQL, 200 for 10 in stock): sold" "exactly $sold every round" \
    "exactly the stock" "$([ -n "$sold" ] && echo ok || echo MISSED)"
row "checkout rush (PostgreSQL, 200 for 10 in stock): p50 / p99" "$p50 / $p99 ms" "p99 < 150 ms" \
    "$(verdict "$p99" 150 'a < b')"
