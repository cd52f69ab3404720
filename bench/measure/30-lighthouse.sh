#!/usr/bin/env bash
# Lighthouse (mobile, its default simulated throttling) in Debian's Chromium on the home page and
# a product page: performance >= 95, accessibility, best practices and SEO 100.
set -euo pipefail
source "$BENCH_DIR/lib.sh"

chromium=${CHROME_PATH:-/usr/bin/chromium}
product=$(curl -fsS "$SHOP_URL/api/products" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')
for page in "home /" "product /product/$product"; do
    set -- $page
    name=$1 path=$2
    report="$BENCH_TMP/lighthouse-$name.json"
    "$BENCH_DIR/node_modules/.bin/lighthouse" "$SHOP_URL$path" --quiet \
        --chrome-path="$chromium" --chrome-flags="--headless=new --no-sandbox --disable-gpu" \
        --only-categories=performance,accessibility,best-practices,seo \
        --output=json --output-path="$report" >/dev/null 2>"$BENCH_TMP/lighthouse-$name.log" ||
        { echo "lighthouse failed on $path" >&2; tail -5 "$BENCH_TMP/lighthouse-$name.log" >&2; exit 1; }
    if [ -n "${BENCH_KEEP:-}" ]; then cp "$report" "$BENCH_KEEP/lighthouse-$name.json"; fi
    python3 - "$report" "$name" >"$BENCH_TMP/lh-rows" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
name = sys.argv[2]
cats = report["categories"]
targets = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
for key, target in targets.items():
    score = round((cats[key]["score"] or 0) * 100)
    print(f"Lighthouse {name}: {cats[key]['title']}\t{score}\t>= {target}\t{'ok' if score >= target else 'MISSED'}")
audits = report["audits"]
for key in ("largest-contentful-paint", "first-contentful-paint", "total-blocking-time", "cumulative-layout-shift"):
    print(f"Lighthouse {name}: {audits[key]['title']}\t{audits[key]['displayValue']}\t-\t-")
failed = [
    key for cat in cats.values() for ref in cat["auditRefs"]
    for key in [ref["id"]]
    if ref.get("weight", 0) > 0 and audits[key].get("score") is not None and audits[key]["score"] < 0.9
]
for key in sorted(set(failed)):
    print(f"  {name}: {key} = {audits[key]['score']} {audits[key].get('displayValue', '')}", file=sys.stderr)
PY
    while IFS=$'\t' read -r a b c d; do row "$a" "$b" "$c" "$d"; done <"$BENCH_TMP/lh-rows"
done
