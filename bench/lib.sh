# Helpers for the measurements of `just bench` (sourced by run.sh and by each bench/measure/*.sh).

# One result row: NAME VALUE TARGET VERDICT (VERDICT: ok, MISSED or "-" when there is no target).
row() {
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$BENCH_ROWS"
    printf '  %-52s %-22s target %-14s %s\n' "$1" "$2" "$3" "$4" >&2
}

# Resident memory of a process in MB (one decimal).
rss_mb() {
    awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"
}

# Waits until URL answers (at most 60 s).
wait_for() {
    for _ in $(seq 1 600); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "no answer from $1" >&2
    return 1
}

# "ok" when the comparison holds (awk expression over $1 and $2), else "MISSED".
verdict() {
    awk -v a="$1" -v b="$2" "BEGIN { exit !($3) }" && echo ok || echo MISSED
}

# wrk's requests per second and p99 latency in ms: `wrk_run CONNECTIONS SECONDS URL [HEADER...]`
# prints "RPS P99_MS".
wrk_run() {
    local connections=$1 seconds=$2 url=$3
    shift 3
    local headers=()
    for header in "$@"; do headers+=(-H "$header"); done
    local threads=2
    [ "$connections" -lt 2 ] && threads=1
    wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "${headers[@]}" "$url" 2>&1 |
        awk '
            /^Requests\/sec:/ { rps = $2 }
            /^ +99%/ { v = $2; ms = v + 0
                       if (v ~ /us$/) ms = ms / 1000; else if (v ~ /[0-9]s$/ && v !~ /ms$/) ms = ms * 1000
                       p99 = ms }
            /Non-2xx or 3xx/ { bad = $NF }
            END { if (bad > 0) { print "wrk: " bad " answers were not 2xx/3xx" > "/dev/stderr" }
                  printf "%.0f %.2f\n", rps, p99 }'
}
