#!/usr/bin/env python3
"""Schema fuzzing (issue 15): schemathesis against the real server and its own OpenAPI document.

Starts the debug server binary on a fresh SQLite database (a temp dir, a free port, the demo
seed), creates a customer with the CLI, logs the customer and the demo super_admin in, then runs
schemathesis three times against GET /api/openapi.json -- as a guest, as the customer and as the
super_admin (the session cookie as a header) -- with a fixed seed and a bounded number of
examples. Checks: no 5xx, and every answer's status, content type and body conform to the
document. Writes one JUnit report per run into the results directory (.ci/summarize.py counts
them), prints the number of generated cases and failures, and exits non-zero on any failure.

Installs nothing: .ci/run installs the pinned schemathesis (see SCHEMATHESIS_VERSION).

    python3 ops/fuzz/fuzz.py --bin target/debug/garden-shop --results test-results

Environment: FUZZ_PORT (default: a free port), FUZZ_EXAMPLES (examples per operation and
phase, default 10: the whole step then takes about 3.5 minutes on a busy 2-core machine; the
coverage phase is not bounded by it), FUZZ_SEED (default 15), FUZZ_PHASES (default
examples,coverage,fuzzing,stateful), FUZZ_WORKERS (default 1: with more threads schemathesis 4.32
sometimes fails inside Hypothesis, "AST constructor recursion depth mismatch"), FUZZ_KEEP=1 keeps
the temp dir (database, server log, schemathesis' logs) and prints where it is.

Schemathesis and Hypothesis keep their caches (`.schemathesis/`, `.hypothesis/`) in the
directory they run in: they run in the temp dir, never in the checkout, and a run that finds
either left in the checkout fails (both are in .gitignore as well).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

SCHEMATHESIS_VERSION = "4.32.5"
ROOT = Path(__file__).resolve().parents[2]

CUSTOMER_EMAIL = "fuzz-customer@example.com"
CUSTOMER_PASSWORD = "fuzz-customer-password-15"
SESSION_COOKIE = "garden_session"

CHECKS = ",".join(
    [
        "not_a_server_error",
        "response_schema_conformance",
        "status_code_conformance",
        "content_type_conformance",
    ]
)

# Not fuzzed at all: GET /api/events is a server-sent event stream that stays open (the heartbeat
# keeps it alive), so a client that reads the whole answer never finishes. Its document entry is
# still checked by the Rust route test, and tests/api covers it.
ALWAYS_EXCLUDED = [("GET", "/api/events")]

# Not fuzzed in the logged-in runs: the calls that would end the session under test, so that
# everything after them would run as a guest.
SESSION_ENDING = [("POST", "/api/logout"), ("DELETE", "/api/profile")]

# Limits raised for the fuzzer only where they would otherwise stop it from reaching the code:
# every request comes from 127.0.0.1, so each per-address limit below would be reached within the
# first few dozen cases of its call, and every later case (also of the logged-in runs, which
# share the address) would be a 429 that never reaches validation or the handler. 429 is still a
# documented answer of each of these calls; the API tests check the limits themselves.
RAISED_LIMITS = {
    # POST /api/login: attempts per address and per e-mail address in a window
    "SHOP__ACCOUNTS__LOGIN_PER_IP": "1000000",
    "SHOP__ACCOUNTS__LOGIN_PER_ADDRESS": "1000000",
    # POST /api/send-verification-code and /api/verify-code
    "SHOP__ACCOUNTS__CODE_PER_IP": "1000000",
    "SHOP__ACCOUNTS__CODE_PER_ADDRESS": "1000000",
    "SHOP__ACCOUNTS__CODE_CHECKS_PER_IP": "1000000",
    # one code per e-mail address per minute: the fuzzer sends the same few addresses again and
    # again, so every later case was a 429 "Please wait" (0: a new code every time, which also
    # gives verify-code fresh tries for the address instead of "Too many wrong codes")
    "SHOP__ACCOUNTS__CODE_RESEND_SECONDS": "0",
    # POST /api/forgot-password
    "SHOP__ACCOUNTS__RESET_PER_IP_PER_HOUR": "1000000",
    # POST /api/validate-promo and /api/roblox/avatar: per address and minute
    "SHOP__CHECKOUT__PROMO_CHECKS_PER_MINUTE": "1000000",
    "SHOP__CHECKOUT__ROBLOX_LOOKUPS_PER_MINUTE": "1000000",
    # checkout: unpaid orders at once per address (the per-session limit stays at its default)
    "SHOP__CHECKOUT__MAX_PENDING_PER_IP": "1000000",
    # the help chat: live-agent requests per address and hour, messages per chat and minute
    "SHOP__CHAT__MAX_LIVE_PER_IP_PER_HOUR": "1000000",
    "SHOP__CHAT__MAX_MESSAGES_PER_MINUTE": "1000000",
}


# Where a failure before the runs is reported as a failed JUnit case (so the summary counts it).
RESULTS: Path | None = None


def fail(message: str, code: int = 1) -> None:
    print(f"fuzz: {message}", file=sys.stderr)
    if RESULTS is not None:
        suite = ET.Element("testsuite", name="schemathesis", tests="1", failures="1")
        case = ET.SubElement(suite, "testcase", name="schema fuzzing: setup")
        ET.SubElement(case, "failure", message=message).text = message
        ET.ElementTree(suite).write(RESULTS / "fuzz-setup.xml", encoding="utf-8")
    sys.exit(code)


def schemathesis_command() -> list[str]:
    """The installed schemathesis CLI, or a clear failure naming the pinned version."""
    exe = shutil.which("schemathesis") or shutil.which("st")
    if exe is None:
        fail(
            "schemathesis is not installed: pip install schemathesis=="
            f"{SCHEMATHESIS_VERSION} (.ci/run does)",
            2,
        )
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    if SCHEMATHESIS_VERSION not in version:
        print(
            f"fuzz: warning: {version.strip()} is installed, the pinned version is "
            f"{SCHEMATHESIS_VERSION} (pip install schemathesis=={SCHEMATHESIS_VERSION})",
            file=sys.stderr,
        )
    return [exe]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(port: int, method: str, path: str, body=None, cookie: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    if cookie:
        headers["Cookie"] = cookie
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response, payload


class Server:
    """The debug binary on a fresh database; its output goes to a log file and is scanned for
    the demo logins it prints."""

    def __init__(self, binary: Path, run_dir: Path, port: int):
        self.binary = binary
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = run_dir / "server.log"
        storefront = run_dir / "storefront"
        storefront.mkdir(parents=True, exist_ok=True)
        (storefront / "index.html").write_text(
            "<!doctype html><html><head><title>Garden Shop</title></head>"
            '<body><div id="root"></div></body></html>\n'
        )
        self.env = {
            **os.environ,
            "SHOP_ENV": "test",
            "DATABASE_URL": f"sqlite://{run_dir / 'shop.db'}?mode=rwc",
            "SHOP__SERVER__HOST": "127.0.0.1",
            "SHOP__SERVER__PORT": str(port),
            # a storefront of its own: the fuzzing runs before the frontend is built, and
            # /api/health/ready rightly answers 503 without one
            "SHOP__SERVER__STATIC_DIR": str(storefront),
            "SHOP__MEDIA__ROOT": str(run_dir / "media"),
            "SHOP__MAIL__OUTBOX_DIR": str(run_dir / "outbox"),
            "SHOP__SITE__PUBLIC_URL": self.base,
            "SHOP__SEED__DEMO_DATA": "true",
            "RUST_LOG": os.environ.get("FUZZ_RUST_LOG", "warn"),
            **RAISED_LIMITS,
        }
        self.logins: dict[str, tuple[str, str]] = {}
        self.process: subprocess.Popen | None = None
        self._lines: list[str] = []

    def start(self) -> None:
        log = open(self.log_path, "w", encoding="utf-8")
        self.process = subprocess.Popen(
            [str(self.binary)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )

        def pump() -> None:
            assert self.process is not None and self.process.stdout is not None
            for line in self.process.stdout:
                log.write(line)
                log.flush()
                match = re.match(r"Demo (\w+) login: (\S+) / (\S+)", line)
                if match:
                    self.logins[match[1]] = (match[2], match[3])
            log.close()

        threading.Thread(target=pump, daemon=True).start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                fail(f"the server exited ({self.process.returncode}); see {self.log_path}")
            try:
                response, _ = request(self.port, "GET", "/api/health")
                if response.status == 200 and "super_admin" in self.logins:
                    return
            except OSError:
                pass
            time.sleep(0.3)
        fail(f"the server did not answer /api/health within 120 s; see {self.log_path}")

    def cli(self, *args: str, stdin: str) -> str:
        result = subprocess.run(
            [str(self.binary), *args],
            cwd=ROOT,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            fail(f"garden-shop {' '.join(args)} failed: {result.stdout}{result.stderr}")
        return result.stdout

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def log_in(self, email: str, password: str) -> str:
        """A session cookie header value for this account."""
        response, payload = request(
            self.port, "POST", "/api/login", {"email": email, "password": password}
        )
        if response.status != 200:
            fail(f"login as {email}: {response.status} {payload[:300]!r}")
        for header, value in response.getheaders():
            if header.lower() == "set-cookie" and value.startswith(f"{SESSION_COOKIE}="):
                cookie = value.split(";", 1)[0]
                check, me = request(self.port, "GET", "/api/me", cookie=cookie)
                if check.status != 200:
                    fail(f"GET /api/me as {email}: {check.status} {me[:300]!r}")
                return cookie
        fail(f"login as {email} set no {SESSION_COOKIE} cookie")
        raise AssertionError  # unreachable


def exclusion_args(calls: list[tuple[str, str]]) -> list[str]:
    """One --exclude-name-regex over the operations' labels (`METHOD /path`)."""
    labels = "|".join(re.escape(f"{method} {path}") for method, path in calls)
    return ["--exclude-name-regex", f"^({labels})$"]


def read_junit(path: Path) -> tuple[int, int, list[str]]:
    """(operations, failed operations, names of the failed ones) from schemathesis' report."""
    if not path.exists():
        return 0, 0, []
    cases = list(ET.parse(path).getroot().iter("testcase"))
    failed = [
        case.get("name", "?")
        for case in cases
        if case.find("failure") is not None or case.find("error") is not None
    ]
    return len(cases), len(failed), failed


def generated_cases(output: str) -> int | None:
    """The 'Test cases: N generated, …' line of schemathesis' summary."""
    match = re.search(r"Test cases:\s*(\d+) generated", output)
    return int(match[1]) if match else None


def run_schemathesis(
    st: list[str],
    server: Server,
    who: str,
    cookie: str | None,
    excluded: list[tuple[str, str]],
    results: Path,
    work: Path,
) -> tuple[int, int | None, int, list[str]]:
    junit = results / f"fuzz-{who}.xml"
    examples = os.environ.get("FUZZ_EXAMPLES", "10")
    command = [
        *st,
        "run",
        f"{server.base}/api/openapi.json",
        "--checks",
        CHECKS,
        "--seed",
        os.environ.get("FUZZ_SEED", "15"),
        "--max-examples",
        examples,
        "--workers",
        os.environ.get("FUZZ_WORKERS", "1"),
        "--phases",
        os.environ.get("FUZZ_PHASES", "examples,coverage,fuzzing,stateful"),
        # redirects (302/303 with Location) are answers of their own, checked as documented
        "--max-redirects",
        "0",
        "--request-timeout",
        "20",
        "--generation-database",
        "none",
        "--no-color",
        "--report",
        "junit,ndjson",
        "--report-junit-path",
        str(junit),
        "--report-dir",
        str(work / f"report-{who}"),
        *exclusion_args(excluded),
    ]
    if cookie:
        # the session under test on every request; no generated session cookies in its place
        command += ["-H", f"Cookie: {cookie}", "--generation-with-security-parameters", "false"]
    print(f"\n--- schemathesis as {who}", flush=True)
    started = time.monotonic()
    # in the temp dir: schemathesis' .schemathesis/ and Hypothesis' .hypothesis/ land there
    result = subprocess.run(command, capture_output=True, text=True, cwd=work)
    output = result.stdout + result.stderr
    (work / f"schemathesis-{who}.log").write_text(output)
    # the summary and any failures; the progress lines are in the log
    summary = output[output.find("=" * 10) :] if "=" * 10 in output else output
    print(summary[-20000:])
    cases = generated_cases(output)
    operations, failed, names = read_junit(junit)
    print(
        f"--- {who}: {cases if cases is not None else '?'} generated cases over {operations} "
        f"operations, {failed} failed operations, exit {result.returncode}, "
        f"{time.monotonic() - started:.0f} s",
        flush=True,
    )
    if result.returncode != 0 and failed == 0:
        # schemathesis failed without a failing test case (an error before or outside them)
        failed = 1
        names = [f"schemathesis exited {result.returncode}"]
    return result.returncode, cases, failed, names


# What schemathesis and Hypothesis write in the directory they run in.
CACHES = (".schemathesis", ".hypothesis")


def caches_left_in(root: Path, before: set[str]) -> list[str]:
    """The caches that appeared in `root` (the checkout) since `before` was taken."""
    return [name for name in CACHES if (root / name).exists() and name not in before]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--bin",
        default=os.environ.get("GARDEN_SHOP_BIN", str(ROOT / "target/debug/garden-shop")),
        help="the server binary (a debug build)",
    )
    parser.add_argument(
        "--results", default=str(ROOT / "test-results"), help="where the JUnit reports go"
    )
    args = parser.parse_args()

    global RESULTS
    results = Path(args.results).resolve()
    results.mkdir(parents=True, exist_ok=True)
    for old in results.glob("fuzz-*.xml"):
        old.unlink()  # a previous `just fuzz`'s reports
    RESULTS = results
    st = schemathesis_command()
    binary = Path(args.bin).resolve()
    if not binary.exists():
        fail(f"no server binary at {binary}: cargo build --bin garden-shop", 2)
    work = Path(tempfile.mkdtemp(prefix="garden-fuzz-"))
    caches_before = {name for name in CACHES if (ROOT / name).exists()}
    port = int(os.environ.get("FUZZ_PORT") or free_port())
    server = Server(binary, work, port)
    started = time.monotonic()
    try:
        server.start()
        print(f"fuzz: the server runs on {server.base} (database, log: {work})", flush=True)
        server.cli(
            "users",
            "create",
            CUSTOMER_EMAIL,
            "--role",
            "customer",
            "--name",
            "Fuzz Customer",
            stdin=CUSTOMER_PASSWORD + "\n",
        )
        # log in before the guest run, so that nothing the guest run does is in the way
        customer = server.log_in(CUSTOMER_EMAIL, CUSTOMER_PASSWORD)
        admin_email, admin_password = server.logins["super_admin"]
        super_admin = server.log_in(admin_email, admin_password)

        runs = [
            ("guest", None, ALWAYS_EXCLUDED),
            ("customer", customer, ALWAYS_EXCLUDED + SESSION_ENDING),
            # last: it deletes and edits the demo catalog
            ("super_admin", super_admin, ALWAYS_EXCLUDED + SESSION_ENDING),
        ]
        total_cases = 0
        total_failed = 0
        problems: list[str] = []
        for who, cookie, excluded in runs:
            code, cases, failed, names = run_schemathesis(
                st, server, who, cookie, excluded, results, work
            )
            total_cases += cases or 0
            total_failed += failed
            problems += [f"{who}: {name}" for name in names]
            if server.process and server.process.poll() is not None:
                problems.append(f"the server died during the {who} run")
                break
    finally:
        server.stop()
    problems += [
        f"schemathesis left {name}/ in the checkout ({ROOT})"
        for name in caches_left_in(ROOT, caches_before)
    ]

    print(
        f"\nfuzz: {total_cases} generated cases in 3 runs (guest, customer, super_admin), "
        f"{total_failed} failed operations, {time.monotonic() - started:.0f} s"
    )
    for problem in problems:
        print(f"  FAILED {problem}")
    if os.environ.get("FUZZ_KEEP") == "1" or problems:
        print(f"fuzz: the database, the server log and schemathesis' logs are in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
