#!/usr/bin/env bash
# GET /api/products (gzip, as browsers ask) against a bare actix handler serving the same bytes:
# req/s at 64 connections, p99 at 1,000 connections, for full answers (200) and revalidations
# (304). Shop and bare run alternately, BENCH_ROUNDS times each (best req/s, best p99 kept).
set -euo pipefail
source "$BENCH_DIR/lib.sh"

seconds=${BENCH_SECONDS:-8}
rounds=${BENCH_ROUNDS:-2}
bare_port=$((BENCH_PORT_BASE + 2))
bare_url="http://127.0.0.1:$bare_port"

curl -fsS -H 'Accept-Encoding: gzip' -D "$BENCH_TMP/list.headers" -o "$BENCH_TMP/list.gz" \
    "$SHOP_URL/api/products"
etag=$(awk -F': ' 'tolower($1) == "etag" { sub(/\r$/, "", $2); print $2 }' "$BENCH_TMP/list.headers")
encoding=$(awk -F': ' 'tolower($1) == "content-encoding" { sub(/\r$/, "", $2); print $2 }' "$BENCH_TMP/list.headers")
bytes=$(stat -c %s "$BENCH_TMP/list.gz")
plain=$(curl -fsS "$SHOP_URL/api/products" | wc -c)
echo "  the list: $plain bytes of JSON, $bytes bytes as ${encoding:-identity}, ETag $etag" >&2
row "product list size (JSON → ${encoding:-identity})" "$plain → $bytes B" "compressed" \
    "$(verdict "$bytes" "$plain" 'a < b')"

"$BARE_BIN" "$bare_port" "$BENCH_TMP/list.gz" "$etag" "${encoding:-identity}" &
bare_pid=$!
trap 'kill $bare_pid 2>/dev/null || true' EXIT
wait_for "$bare_url/api/products"

best_rps() { # URL HEADERS... → best req/s over the rounds
    local best=0 url=$1; shift
    for _ in $(seq 1 "$rounds"); do
        read -r rps _ < <(wrk_run 64 "$seconds" "$url" "$@")
        [ "$rps" -gt "$best" ] && best=$rps
    done
    echo "$best"
}
best_p99() { # URL HEADERS... → lowest p99 over the rounds at 1,000 connections
    local best="" url=$1; shift
    for _ in $(seq 1 "$rounds"); do
        read -r _ p99 < <(wrk_run 1000 "$seconds" "$url" "$@")
        if [ -z "$best" ] || awk -v a="$p99" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$p99; fi
    done
    echo "$best"
}

for kind in 200 304; do
    headers=("Accept-Encoding: gzip, deflate, br")
    [ "$encoding" = gzip ] && headers=("Accept-Encoding: gzip")
    [ "$kind" = 304 ] && headers+=("If-None-Match: $etag")
    # warm both up
    wrk_run 64 2 "$SHOP_URL/api/products" "${headers[@]}" >/dev/null
    wrk_run 64 2 "$bare_url/api/products" "${headers[@]}" >/dev/null
    shop_rps=$(best_rps "$SHOP_URL/api/products" "${headers[@]}")
    bare_rps=$(best_rps "$bare_url/api/products" "${headers[@]}")
    ratio=$(awk -v a="$shop_rps" -v b="$bare_rps" 'BEGIN { printf "%.0f", 100 * a / b }')
    row "product list $kind gzip: req/s shop / bare (64 conns)" "$shop_rps / $bare_rps = $ratio %" \
        ">= 90 %" "$(verdict "$ratio" 90 'a >= b')"
    shop_p99=$(best_p99 "$SHOP_URL/api/products" "${headers[@]}")
    bare_p99=$(best_p99 "$bare_url/api/products" "${headers[@]}")
    factor=$(awk -v a="$shop_p99" -v b="$bare_p99" 'BEGIN { printf "%.2f", a / b }')
    row "product list $kind gzip: p99 shop / bare (1,000 conns)" "$shop_p99 / $bare_p99 ms = ${factor}x" \
        "<= 1.2x" "$(verdict "$factor" 1.2 'a <= b')"
done
