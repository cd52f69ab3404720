#!/usr/bin/env bash
# Two checkout rushes on PostgreSQL, 5 measured rounds each
# (crates/app/benches/checkout_concurrency.rs, the release profile; it asserts that every round
# sold exactly the stock and refused the rest with 409, and fails otherwise):
# - one account: 200 shoppers at once, one Discord account from one address, 10 in stock;
# - own accounts: 200 buyers at once, each with its own Discord account and its own address
#   through a trusted proxy, 25 in stock.
set -euo pipefail
source "$BENCH_DIR/lib.sh"
(cd "$BENCH_DIR/.." && cargo bench --quiet -p garden-app --bench checkout_concurrency) \
    >"$BENCH_TMP/checkout.txt" 2>"$BENCH_TMP/checkout.log" ||
    { echo "the checkout rush failed" >&2; tail -20 "$BENCH_TMP/checkout.log" >&2; exit 1; }
sed 's/^/  /' "$BENCH_TMP/checkout.txt" >&2
# one block per rush: its heading line names it, then "every round sold exactly N", "latency p50"
for rush in "one account|200 for 10 in stock, one account|150" \
    "own accounts|200 for 25 in stock, own accounts and addresses|250"; do
    IFS='|' read -r name label target <<<"$rush"
    block=$(awk -v name="($name)" 'index($0, name) { on = 1; next } /^checkout \(/ { on = 0 } on' \
        "$BENCH_TMP/checkout.txt")
    read -r p50 p99 < <(awk '/latency p50/ { gsub(",", ""); print $3, $6 }' <<<"$block")
    sold=$(awk '/every round sold exactly/ { gsub(",", ""); print $5 }' <<<"$block")
    row "checkout rush (PostgreSQL, $label): sold" "exactly $sold every round" \
        "exactly the stock" "$([ -n "$sold" ] && echo ok || echo MISSED)"
    row "checkout rush (PostgreSQL, $label): p50 / p99" "$p50 / $p99 ms" "p99 < $target ms" \
        "$(verdict "$p99" "$target" 'a < b')"
done
