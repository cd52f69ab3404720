# Garden Shop. `just run` starts the shop, `just test` runs every test.

set shell := ["bash", "-euo", "pipefail", "-c"]

target_dir := env_var_or_default("CARGO_TARGET_DIR", justfile_directory() / "target")
server_bin := target_dir / "debug/garden-shop"

# List the recipes.
default:
    @just --list

# Install the frontend's packages when they are missing or out of date.
frontend-deps:
    #!/usr/bin/env bash
    set -euo pipefail
    cd frontend
    if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        npm ci --no-audit --no-fund
    fi

# Build the frontend (frontend/dist) and the server.
build: frontend-deps
    cd frontend && npm run build
    cargo build --bin garden-shop

# Build, migrate and seed data/shop.db, and serve the shop on http://localhost:8080 (or
# SHOP__SERVER__PORT); prints the demo staff logins of that database at every start.
run: build
    {{server_bin}}

# The server and Vite's dev server with hot reload on http://localhost:5173 (API proxied).
dev: frontend-deps
    #!/usr/bin/env bash
    set -euo pipefail
    cargo build --bin garden-shop
    {{server_bin}} & server=$!
    trap 'kill $server' EXIT
    cd frontend && npm run dev

# A release build for production: target/release/garden-shop plus frontend/dist.
build-release: frontend-deps
    cd frontend && npm run build
    cargo build --release --bin garden-shop

# Every test: Rust (domain, store and API on SQLite and PostgreSQL; the metrics tests run
# `promtool check metrics` on a live /metrics, from Debian's prometheus package), schema fuzzing
# (schemathesis), Vitest, Playwright; then one summary line.
test: frontend-deps
    #!/usr/bin/env bash
    set -uo pipefail
    results="{{justfile_directory()}}/test-results"
    rm -rf "$results" && mkdir -p "$results"
    status=0
    # each step's wall time and how busy the machine's cores were meanwhile (from /proc/stat:
    # 100 % is every core busy), printed as it ends and again in the summary
    timings=""
    step_name=""
    step_start=$SECONDS
    cpu_ticks() { awk '/^cpu /{ print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9 }' /proc/stat 2>/dev/null || echo "0 0"; }
    read -r busy_start total_start < <(cpu_ticks)
    step() {
        read -r busy_now total_now < <(cpu_ticks)
        if [ -n "$step_name" ]; then
            local used=$(( total_now > total_start ? 100 * (busy_now - busy_start) / (total_now - total_start) : 0 ))
            timings+="$(printf '  %5d s  %3d %% CPU  %s' $((SECONDS - step_start)) "$used" "$step_name")"$'\n'
            printf '(%s: %d s, %d %% CPU)\n' "$step_name" $((SECONDS - step_start)) "$used"
        fi
        step_name="$1"; step_start=$SECONDS; busy_start=$busy_now; total_start=$total_now
        echo; echo "=== $1"
    }

    step "Static checks: rustfmt, clippy, ESLint, Prettier"
    just lint || status=1

    step "Rust: domain unit tests, store and API tests on SQLite and PostgreSQL; schema fuzzing beside them"
    # One build for the tests, the fuzzing's and the browser tests' server binary (same features,
    # no rebuild). The schema fuzzing (schemathesis: guest, customer, super_admin) keeps to one
    # core (more threads trip Hypothesis) and runs beside the Rust tests, which leave a core a
    # fifth idle; its output is held back and printed whole after Vitest's.
    built=0
    rm -f target/nextest/ci/junit.xml "{{target_dir}}/nextest/ci/junit.xml"
    cargo test --workspace --no-run --quiet && built=1 || status=1
    fuzz_log="$results/fuzz.log"
    if [ "$built" -eq 1 ]; then
        python3 ops/fuzz/fuzz.py --bin "{{server_bin}}" --results "$results" >"$fuzz_log" 2>&1 &
        fuzz_pid=$!
    else
        echo "the build failed: the fuzzing not run" >"$fuzz_log"; fuzz_pid=""; status=1
    fi
    cargo nextest run --workspace --profile ci || status=1
    for junit in target/nextest/ci/junit.xml "{{target_dir}}/nextest/ci/junit.xml"; do
        [ -f "$junit" ] && cp "$junit" "$results/rust.xml" && break
    done

    step "Vitest beside the browser tests' frontend build, and the end of the schema fuzzing"
    # the production build the browser tests serve (tsc, Vite) takes the core Vitest leaves idle
    frontend_log="$results/frontend-build.log"
    (cd frontend && npm run build) >"$frontend_log" 2>&1 &
    frontend_pid=$!
    (cd frontend && npx vitest run --reporter=default --reporter=junit --outputFile.junit="$results/vitest.xml") || status=1
    if [ -n "$fuzz_pid" ]; then wait "$fuzz_pid" || status=1; fi
    echo; echo "--- schema fuzzing"; cat "$fuzz_log"
    frontend_built=0
    wait "$frontend_pid" && frontend_built=1 || status=1
    echo; echo "--- the frontend build"; cat "$frontend_log"

    step "Browser end-to-end tests (Playwright, Chromium, real server)"
    if [ "$built" -eq 1 ] && [ "$frontend_built" -eq 1 ]; then
        (cd frontend && GARDEN_SHOP_BIN="{{server_bin}}" PLAYWRIGHT_JUNIT_OUTPUT_FILE="$results/e2e.xml" \
            npx playwright test --reporter=list,junit) || status=1
    else
        echo "the build failed: browser tests not run"; status=1
    fi

    step "Summary"
    printf 'step times:\n%s  %5d s  in all\n' "$timings" "$SECONDS"
    [ "$status" -eq 0 ] || echo "a step failed (see above): the run fails"
    python3 .ci/summarize.py "$results"
    exit $status

# Schema fuzzing alone: schemathesis against the debug server on a fresh database, as a guest, a
# customer and the super_admin (ops/fuzz/fuzz.py; needs `pip install schemathesis==4.32.5`, as
# .ci/run does). JUnit reports in test-results/fuzz-*.xml.
fuzz:
    cargo build --quiet --bin garden-shop
    python3 ops/fuzz/fuzz.py --bin "{{server_bin}}" --results "{{justfile_directory()}}/test-results"

# The scale-out test: nginx round-robin in front of three instances on one fresh PostgreSQL
# database (TEST_POSTGRES_URL), sessions in Redis (TEST_REDIS_URL), one media directory; prints
# each check (ops/cluster/cluster_test.py; ports 18610-18613 or CLUSTER_BASE_PORT).
test-cluster:
    # the same build as `just test` (same features), so after it nothing is compiled again
    cargo test --workspace --no-run --quiet
    GARDEN_SHOP_BIN="{{server_bin}}" CLUSTER_JUNIT="{{justfile_directory()}}/test-results/cluster.xml" \
        python3 ops/cluster/cluster_test.py

# Back the shop of this config and DATABASE_URL up into the new directory PATH (the database and
# the media directory), while it runs. See docs/operations.md.
backup PATH:
    cargo build --quiet --bin garden-shop
    {{server_bin}} backup "{{PATH}}"

# Regenerate frontend/openapi.json (the server's OpenAPI document, `garden-shop openapi`) and
# frontend/src/types/api.gen.ts (openapi-typescript). Run it after changing a route's annotations
# or a request or response type: a Rust and a Vitest test fail while either is stale.
api-types: frontend-deps
    cargo build --quiet --bin garden-shop
    {{server_bin}} openapi > frontend/openapi.json
    cd frontend && node src/types/generate-api-types.mjs

# Static checks: rustfmt, clippy (warnings are errors), what docs/architecture.md claims (its
# crate graph; domain crates free of web, database and adapter crates; no module circle in any
# crate, read from the source by ops/lint/architecture.py, whose tests plant one of each kind),
# ESLint and Prettier.
lint: frontend-deps
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings
    python3 -m unittest discover ops/lint
    python3 ops/lint/architecture.py
    cd frontend && npm run lint

# Format Rust and frontend code.
fmt: frontend-deps
    cargo fmt --all
    cd frontend && npm run format

# Create a staff account, or set the role and password of an existing one (ROLE: customer,
# admin, super_admin). Asks for the password; uses the same config and DATABASE_URL as the server.
user-create EMAIL ROLE:
    #!/usr/bin/env bash
    set -euo pipefail
    cargo build --quiet --bin garden-shop
    if [ -t 0 ]; then
        read -rsp "Password for {{EMAIL}}: " password; echo
    else
        IFS= read -r password
    fi
    printf '%s\n' "$password" | {{server_bin}} users create "{{EMAIL}}" --role "{{ROLE}}"

# Benchmarks side by side in one table (release build, needs `wrk`: apt-get install -y wrk):
# the product list against a bare actix handler, RSS, Lighthouse. One script per measurement in
# bench/measure/. Not part of `just test`.
bench:
    bench/run.sh

# Criterion micro-benchmarks: the product list path, the idle help-chat poll, login, checkout.
bench-micro:
    cargo bench -p garden-app

# The drop benchmark (issue 25): release build, three instances on one fresh PostgreSQL database
# (TEST_POSTGRES_URL; sessions in Redis, TEST_REDIS_URL) behind nginx, a fake Discord; a drop of
# 30 units (max 1 per account, release_at a few seconds ahead), 5,000 open event streams, 300
# buyers pressing checkout in the second after the release (50 twice). Load from bench/drop (Rust,
# tokio). Prints a table; writes bench/results/drop.json and drop.png (needs matplotlib). Ports
# 18650-18654 (DROP_PORT). Raises only the per-address limits, nginx's worker_connections and the
# open-file limit. Not part of `just test` or `just bench`.
bench-drop *ARGS:
    #!/usr/bin/env bash
    set -euo pipefail
    cargo build --release --quiet --bin garden-shop
    bench_target="${DROP_TARGET_DIR:-{{target_dir}}/bench-drop}"
    CARGO_TARGET_DIR="$bench_target" cargo build --release --quiet --locked \
        --manifest-path bench/drop/Cargo.toml
    python3 -c 'import matplotlib' 2>/dev/null || echo "matplotlib is missing (pip install matplotlib): no drop.png" >&2
    ulimit -n "$(ulimit -Hn)"
    python3 bench/drop.py --bin "{{target_dir}}/release/garden-shop" \
        --loadgen "$bench_target/release/drop-load" {{ARGS}}
