#!/usr/bin/env python3
"""The drop benchmark (issue 25, item 3; `just bench-drop`).

Three release-build instances on one fresh PostgreSQL database (sessions in Redis), nginx
round-robin in front of them (ops/cluster/nginx.conf.template), a fake Discord for the OAuth
linking, all on this machine. A drop (30 units, max_per_account 1, release_at a few seconds
ahead) is sold to 300 buyers (50 of them press twice) pressing checkout in the second after the
release, while 5,000 shoppers hold event streams open. The load itself comes from a Rust/tokio
generator (bench/drop, `drop-load`); this script starts everything, measures the processes,
reads the database and writes the results.

Prints one line per measurement (NAME, VALUE, TARGET, VERDICT, tab-separated, like `just
bench`) and a table; writes bench/results/drop.json and, with matplotlib, bench/results/drop.png
(the closing line names only the files this run wrote).

Only what the load from one address needs is raised: events.max_streams_per_ip and
checkout.max_pending_per_ip (all clients are 127.0.0.1), nginx's worker_connections (with
worker_rlimit_nofile) and the open-file limit. SHOP_ENV=test (for its fixed session key and the
offline Roblox stand-in), with catalog.refresh_seconds put back to the shipped 5 s.

Until the backend knows `release_at` (the product answer has no `release_at`), the drop is a
plain product of 30 units put on sale at the "release" moment: then the release fan-out is
timed from the first sale's first `products` event instead.

Environment: TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres),
TEST_REDIS_URL (default redis://127.0.0.1:6379), NGINX (default /usr/sbin/nginx).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.cookiejar
import http.server
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PG = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")
# PostgreSQL's log (Debian's), read with --profile for the bench database's statements
PG_LOG = os.environ.get("PG_LOG", "/var/log/postgresql/postgresql-15-main.log")
SESSION_KEY = (
    "5CFDn5kGnGB1/HoIqhY7qvopb5tyzH7XtLnJlIlyutSeEH917e7pmXDAhIIdANJT35pKNrFmhDn+5kyFjvwXcA=="
)
STAFF_EMAIL = "drop-staff@example.com"
STAFF_PASSWORD = "drop bench staff password"
STOCK = 30
PRICE = "10.00"
CLK = os.sysconf("SC_CLK_TCK")


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- processes -------------------------------------------------------------------------------


def proc_cpu(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK
    except OSError:
        return 0.0


def proc_rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def postgres_pids() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as comm:
                    if comm.read().strip() == "postgres":
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


def run_queue_wait(pid: int) -> float:
    """Seconds the process's threads spent runnable but waiting for a CPU (schedstat)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                    total += int(stat.read().split()[1])
            except OSError:
                pass
    except OSError:
        pass
    return total / 1e9


def machine_softirq_seconds() -> float:
    """CPU seconds spent in softirq (the loopback network's receive path, mostly)."""
    with open("/proc/stat") as stat:
        return int(stat.readline().split()[7]) / CLK


def machine_busy_seconds() -> float:
    """CPU seconds every process of the machine has used (all cores, /proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(f) for f in stat.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal: busy = all but idle and iowait
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLK


def postgres_cpu() -> dict[int, float]:
    return {pid: proc_cpu(pid) for pid in postgres_pids()}


class Sampler(threading.Thread):
    """Every 100 ms: each process's RSS (MB) and CPU seconds so far, PostgreSQL's processes
    summed (every database of the server: the machine is otherwise idle during the bench)."""

    def __init__(self, pids: dict[str, int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.samples: list[tuple[float, dict[str, tuple[float, float]]]] = []
        self.stopped = threading.Event()

    def sample(self) -> None:
        now = time.time()
        values = {name: (proc_rss_mb(pid), proc_cpu(pid)) for name, pid in self.pids.items()}
        for name, pid in self.pids.items():
            values[f"{name} waiting for a CPU"] = (0.0, run_queue_wait(pid))
        values["postgres"] = (0.0, sum(postgres_cpu().values()))
        values["machine"] = (0.0, machine_busy_seconds())
        values["machine softirq"] = (0.0, machine_softirq_seconds())
        self.samples.append((now, values))

    def run(self) -> None:
        while not self.stopped.is_set():
            self.sample()
            time.sleep(0.1)

    def peak_rss(self, name: str) -> float:
        return max((v[name][0] for _, v in self.samples), default=0.0)

    def names(self) -> list[str]:
        return list(self.samples[0][1])

    def cpu_between(self, name: str, start: float, end: float) -> float:
        """CPU seconds used between two moments (the nearest samples around them)."""
        before = [v[name][1] for t, v in self.samples if t <= start] or [self.samples[0][1][name][1]]
        after = [v[name][1] for t, v in self.samples if t >= end] or [self.samples[-1][1][name][1]]
        return after[0] - before[-1]


# --- the fake Discord ------------------------------------------------------------------------


class FakeDiscord(http.server.BaseHTTPRequestHandler):
    """Discord's OAuth endpoints as the shop uses them: the consent page (the buyer names
    themselves with `login=<user id>`), POST /api/oauth2/token and GET /api/users/@me."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def answer(self, status: int, body: dict | None = None, headers: dict | None = None) -> None:
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        url = urllib.parse.urlparse(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/oauth2/authorize":
            user = query.get("login", "")
            back = query["redirect_uri"] + "?" + urllib.parse.urlencode(
                {"code": f"code-{user}-{uuid.uuid4().hex[:8]}", "state": query.get("state", "")}
            )
            self.answer(302, None, {"Location": back})
        elif url.path == "/api/users/@me":
            token = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            user = token.removeprefix("tok-")
            if not token.startswith("tok-") or not user.isdigit():
                self.answer(401, {"message": "401: Unauthorized"})
            else:
                self.answer(200, {"id": user, "username": f"buyer{user[-4:]}", "avatar": None})
        else:
            self.answer(404, {"message": "404: Not Found"})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        if self.path == "/api/oauth2/token" and form.get("code", "").startswith("code-"):
            user = form["code"].split("-")[1]
            self.answer(200, {"access_token": f"tok-{user}", "token_type": "Bearer",
                              "expires_in": 604800, "refresh_token": "r",
                              "scope": "identify guilds.join"})
        else:
            self.answer(400, {"error": "invalid_grant"})


# --- HTTP (the staff's few calls) ------------------------------------------------------------


class Browser:
    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, method, url, body=None, headers=None):
        req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
        try:
            with self.opener.open(req, timeout=30) as resp:
                return resp.status, dict(resp.headers), resp.read()
        except urllib.error.HTTPError as err:
            return err.code, dict(err.headers), err.read()


def multipart(fields: dict[str, str]) -> tuple[bytes, str]:
    boundary = "drop-" + uuid.uuid4().hex
    out = bytearray()
    for name, value in fields.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n"
                f"{value}\r\n").encode()
    out += f"--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"


# --- the bench -------------------------------------------------------------------------------


class Bench:
    def __init__(self, args) -> None:
        self.args = args
        self.dir = Path(tempfile.mkdtemp(prefix="garden-drop-"))
        self.db_name = f"bench_drop_{uuid.uuid4().hex[:10]}"
        self.db_url = PG.rsplit("/", 1)[0] + "/" + self.db_name
        self.lb_port = args.port
        self.instance_ports = [args.port + 1, args.port + 2, args.port + 3]
        self.discord_port = args.port + 4
        self.lb = f"http://127.0.0.1:{self.lb_port}"
        self.instances: dict[int, subprocess.Popen] = {}
        self.nginx: subprocess.Popen | None = None
        self.discord: http.server.ThreadingHTTPServer | None = None
        self.loadgen: subprocess.Popen | None = None

    def psql(self, url: str, sql: str) -> str:
        out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url,
                              "-c", sql], check=True, capture_output=True, text=True)
        return out.stdout.strip()

    def rows(self, sql: str) -> list[list[str]]:
        text = self.psql(self.db_url, sql)
        return [line.split("|") for line in text.splitlines() if line]

    def env(self, port: int) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            "SHOP_ENV": "test",
            "SHOP_CONFIG_DIR": str(ROOT / "config"),
            "DATABASE_URL": self.db_url,
            "SHOP__SERVER__HOST": "127.0.0.1",
            "SHOP__SERVER__PORT": str(port),
            "SHOP__SERVER__STATIC_DIR": str(self.dir / "static"),
            "SHOP__SERVER__TRUSTED_PROXIES": "127.0.0.1",
            "SHOP__MEDIA__ROOT": str(self.dir / "media"),
            "SHOP__MAIL__OUTBOX_DIR": str(self.dir / "outbox"),
            "SHOP__SESSION__KEY": SESSION_KEY,
            "SHOP__SESSION__REDIS_URL": REDIS,
            "SHOP__SITE__PUBLIC_URL": self.lb,
            "SHOP__SEED__DEMO_DATA": "false",
            # test.toml's 1 s back to the shipped value
            "SHOP__CATALOG__REFRESH_SECONDS": "5",
            # raised: every client of this bench is 127.0.0.1
            "SHOP__EVENTS__MAX_STREAMS_PER_IP": str(self.args.streams),
            "SHOP__CHECKOUT__MAX_PENDING_PER_IP": str(self.args.buyers + self.args.twice),
            # the fake Discord
            "SHOP__DISCORD__CLIENT_ID": "drop-bench",
            "SHOP__DISCORD__CLIENT_SECRET": "drop-bench-secret",
            "SHOP__DISCORD__API_BASE": f"http://127.0.0.1:{self.discord_port}/api",
            "SHOP__DISCORD__AUTHORIZE_URL": f"http://127.0.0.1:{self.discord_port}/oauth2/authorize",
            "RUST_LOG": self.args.rust_log,
        })
        return env

    def start(self) -> None:
        binary = Path(self.args.bin)
        if not binary.is_file():
            sys.exit(f"no server binary at {binary}")
        (self.dir / "static").mkdir()
        (self.dir / "static" / "index.html").write_text("<!doctype html><title>Garden Shop</title>")
        (self.dir / "media").mkdir()
        self.psql(PG, f'CREATE DATABASE "{self.db_name}"')
        if self.args.profile:
            # every statement of this database, with its duration, in the server's log
            self.psql(PG, f'ALTER DATABASE "{self.db_name}" SET log_min_duration_statement = 0')
            self.pg_log_offset = os.path.getsize(PG_LOG) if os.path.exists(PG_LOG) else None
        subprocess.run([str(binary), "users", "create", STAFF_EMAIL, "--role", "super_admin"],
                       input=STAFF_PASSWORD + "\n", env=self.env(self.instance_ports[0]),
                       check=True, capture_output=True, text=True)
        self.discord = http.server.ThreadingHTTPServer(("127.0.0.1", self.discord_port),
                                                       FakeDiscord)
        threading.Thread(target=self.discord.serve_forever, daemon=True).start()
        for port in self.instance_ports:
            out = open(self.dir / f"instance-{port}.log", "wb")
            self.instances[port] = subprocess.Popen([str(binary)], env=self.env(port),
                                                    stdout=out, stderr=subprocess.STDOUT)
        template = (ROOT / "ops" / "cluster" / "nginx.conf.template").read_text()
        upstreams = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;"
                              for port in self.instance_ports)
        conf = (template.replace("{{PREFIX}}", str(self.dir))
                .replace("{{UPSTREAMS}}", upstreams)
                .replace("{{LISTEN}}", f"127.0.0.1:{self.lb_port}"))
        # raised for this bench: two connections per stream (client and upstream side)
        connections = 2 * self.args.streams + 4 * (self.args.buyers + 100)
        conf = conf.replace("worker_connections 1024;", f"worker_connections {connections};")
        conf = conf.replace("worker_processes 1;",
                            f"worker_processes {self.args.nginx_workers};\n"
                            f"worker_rlimit_nofile {connections + 100};")
        (self.dir / "nginx.conf").write_text(conf)
        self.nginx = subprocess.Popen([NGINX, "-p", str(self.dir), "-c",
                                       str(self.dir / "nginx.conf")],
                                      stdout=open(self.dir / "nginx.out", "wb"),
                                      stderr=subprocess.STDOUT)
        for port in self.instance_ports:
            self.wait_ready(f"http://127.0.0.1:{port}/api/health")
        self.wait_ready(f"{self.lb}/api/health")

    def wait_ready(self, url: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(url, timeout=1)
                return
            except Exception:
                for port, proc in self.instances.items():
                    if proc.poll() is not None:
                        tail = (self.dir / f"instance-{port}.log").read_text(errors="replace")
                        sys.exit(f"instance {port} exited:\n{tail[-3000:]}")
                time.sleep(0.2)
        sys.exit(f"{url} never answered")

    def nginx_worker(self) -> int | None:
        try:
            out = subprocess.run(["pgrep", "-P", str(self.nginx.pid)], capture_output=True,
                                 text=True).stdout.split()
            return int(out[0]) if out else None
        except (OSError, ValueError):
            return None

    def create_drop(self, staff: Browser, release_at: dt.datetime | None) -> dict:
        fields = {"name": f"Drop {uuid.uuid4().hex[:6]}", "price": PRICE, "category": "Pets",
                  "stock": str(STOCK), "description": "The bench's drop"}
        if release_at is not None:
            fields["release_at"] = release_at.isoformat().replace("+00:00", "Z")
            fields["max_per_account"] = "1"
        body, content_type = multipart(fields)
        status, _, answer = staff.request("POST", f"{self.lb}/api/admin/products", body,
                                          {"Content-Type": content_type})
        if status != 201:
            raise RuntimeError(f"create product: {status} {answer[:300]!r}")
        return json.loads(answer)

    def stop(self) -> None:
        procs = list(self.instances.values())
        if self.loadgen:
            procs.append(self.loadgen)
        if self.nginx:
            procs.append(self.nginx)
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if self.discord:
            self.discord.shutdown()
        if self.args.keep:
            log(f"kept the database {self.db_name} and {self.dir}")
            return
        try:
            self.psql(PG, f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        except subprocess.CalledProcessError as err:
            log(f"could not drop {self.db_name}: {err.stderr}")
        shutil.rmtree(self.dir, ignore_errors=True)


def start_profilers(args, bench: "Bench", pids: dict[str, int], release_ts: float) -> list:
    """With --profile DIR: perf over the instances from 0.5 s before the release for
    --profile-seconds, and PostgreSQL's sessions of the bench database every 50 ms."""
    if not args.profile:
        return []
    out = Path(args.profile)
    out.mkdir(parents=True, exist_ok=True)
    started = []
    activity = open(out / "pg_activity.txt", "w")
    sql = ("SELECT clock_timestamp(), pid, state, coalesce(wait_event_type, '-'), "
           "coalesce(wait_event, '-'), left(regexp_replace(query, '\\s+', ' ', 'g'), 90) "
           f"FROM pg_stat_activity WHERE datname = '{bench.db_name}' AND pid <> pg_backend_pid()")
    watcher = subprocess.Popen(["psql", "-X", "-q", "-A", "-t", "-F", "|", "-d", bench.db_url],
                               stdin=subprocess.PIPE, stdout=activity, stderr=subprocess.DEVNULL,
                               text=True)
    watcher.stdin.write(sql + "\n\\watch 0.05\n")
    watcher.stdin.flush()
    started.append(watcher)
    if shutil.which("perf"):
        delay = max(0.0, release_ts - 0.5 - time.time())
        time.sleep(delay)
        started.append(subprocess.Popen(
            ["perf", "record", "-F", "999", "-o", str(out / "perf.data"), "-p",
             ",".join(str(p) for p in pids.values()), "--", "sleep", str(args.profile_seconds)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return started


def stop_profilers(args, bench: "Bench", started: list) -> None:
    if not args.profile:
        return
    out = Path(args.profile)
    for proc in started:
        if proc.args[0] == "perf":
            proc.wait()
        else:
            proc.terminate()
            proc.wait()
    for name in os.listdir(bench.dir):
        if name.endswith(".log") or name == "drop-raw.json":
            shutil.copy(bench.dir / name, out / name)
    offset = getattr(bench, "pg_log_offset", None)
    if offset is not None:
        with open(PG_LOG, errors="replace") as pg_log, open(out / "pg-statements.log", "w") as keep:
            pg_log.seek(offset)
            for line in pg_log:
                if f"@{bench.db_name} " in line:
                    keep.write(line)
    if (out / "perf.data").exists():
        with open(out / "perf-report.txt", "w") as report:
            subprocess.run(["perf", "report", "-i", str(out / "perf.data"), "--stdio",
                            "--sort", "comm,dso,symbol", "--percent-limit", "0.5"],
                           stdout=report, stderr=subprocess.DEVNULL)


def percentile(samples: list[float], pct: float) -> float | None:
    if not samples:
        return None
    ordered = sorted(samples)
    rank = max(0, -(-len(ordered) * pct // 100) - 1)
    return ordered[int(rank)]


def parse_ts(text: str) -> float:
    """A PostgreSQL timestamptz (psql's text) as Unix seconds."""
    text = text.strip().replace(" ", "T", 1)
    if text.endswith("+00"):
        text = text[:-3] + "+00:00"
    return dt.datetime.fromisoformat(text).timestamp()


def fan_out(streams: list[dict], from_event: int | None, t0: float | None) -> dict:
    """Per stream: arrival of its first products event numbered >= from_event, minus t0."""
    if from_event is None or t0 is None:
        return {"event_id": from_event, "t0": t0, "delays_ms": [], "missing": len(streams)}
    delays, missing = [], 0
    for stream in streams:
        arrivals = [at for event_id, at in stream["products"] if event_id >= from_event]
        if arrivals:
            delays.append(round((min(arrivals) / 1e6 - t0) * 1000, 2))
        else:
            missing += 1
    return {
        "event_id": from_event,
        "t0": t0,
        "p50_ms": percentile(delays, 50),
        "p95_ms": percentile(delays, 95) if not missing or missing <= len(streams) * 0.05 else None,
        "p100_ms": max(delays) if delays and not missing else None,
        "missing": missing,
        "delays_ms": delays,
    }


def run(args) -> dict:
    loadavg_before = open("/proc/loadavg").read().split()[0]
    bench = Bench(args)
    loadgen_out = bench.dir / "drop-raw.json"
    try:
        log(f"starting PostgreSQL database {bench.db_name}, 3 instances "
            f"({bench.instance_ports}), nginx on {bench.lb_port}, fake Discord on "
            f"{bench.discord_port}")
        bench.start()
        pids = {f"instance {port}": proc.pid for port, proc in bench.instances.items()}
        worker = bench.nginx_worker()
        time.sleep(1)
        rss_idle = {name: proc_rss_mb(pid) for name, pid in pids.items()}
        cpu_start = {name: proc_cpu(pid) for name, pid in pids.items()}
        staff = Browser()
        status, _, body = staff.request("POST", f"{bench.lb}/api/login",
                                        json.dumps({"email": STAFF_EMAIL,
                                                    "password": STAFF_PASSWORD}).encode(),
                                        {"Content-Type": "application/json"})
        if status != 200:
            raise RuntimeError(f"staff login: {status} {body[:200]!r}")

        log(f"load generator: linking {args.buyers} buyers, opening {args.streams} streams")
        bench.loadgen = subprocess.Popen(
            [args.loadgen, "--base", bench.lb, "--buyers", str(args.buyers), "--twice",
             str(args.twice), "--streams", str(args.streams), "--spread-ms",
             str(args.spread_ms), "--offset-ms", str(args.offset_ms), "--linger-ms",
             str(args.linger_ms), "--out", str(loadgen_out)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        phases = {}
        while True:
            line = bench.loadgen.stdout.readline()
            if not line:
                raise RuntimeError(f"the load generator stopped ({bench.loadgen.wait()})")
            phase = json.loads(line)
            phases[phase["phase"]] = phase
            log(f"load generator: {line.strip()}")
            if phase["phase"] == "ready":
                break
        time.sleep(1)
        rss_streams = {name: proc_rss_mb(pid) for name, pid in pids.items()}

        watched = dict(pids)
        if worker:
            watched["nginx"] = worker
        watched["load generator"] = bench.loadgen.pid
        sampler = Sampler(watched)
        sampler.start()
        time.sleep(0.3)
        release_at = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) + dt.timedelta(
            seconds=args.release_in)
        mode = args.mode
        product = None
        if mode in ("auto", "drop"):
            try:
                product = bench.create_drop(staff, release_at)
            except RuntimeError as err:
                if mode == "drop":
                    raise
                log(f"the drop fields were refused ({err}); a plain product instead")
            if product is not None and "release_at" not in product:
                if mode == "drop":
                    raise RuntimeError("the product answer has no release_at: no drop support")
                log("the backend has no release_at yet: the drop is a plain product")
                mode = "plain"
            elif product is not None:
                mode = "drop"
        if product is None:
            mode = "plain"
            product = bench.create_drop(staff, None)
        created = time.time()
        log(f"{mode}: product {product['id']} created; release at {release_at.isoformat()} "
            f"({release_at.timestamp() - created:.2f} s ahead)")
        go = {"product_id": product["id"], "price": float(PRICE),
              "release_at_ms": int(release_at.timestamp() * 1000)}
        bench.loadgen.stdin.write(json.dumps(go) + "\n")
        bench.loadgen.stdin.flush()
        profilers = start_profilers(args, bench, pids, release_at.timestamp())
        while True:
            line = bench.loadgen.stdout.readline()
            if not line:
                raise RuntimeError(f"the load generator stopped ({bench.loadgen.wait()})")
            phase = json.loads(line)
            phases[phase["phase"]] = phase
            log(f"load generator: {line.strip()}")
            if phase["phase"] == "done":
                break
        bench.loadgen.wait()
        stop_profilers(args, bench, profilers)
        rss_after = {name: proc_rss_mb(pid) for name, pid in pids.items()}
        cpu_end = {name: proc_cpu(pid) for name, pid in pids.items()}
        sampler.stopped.set()
        sampler.join()
        raw = json.loads(loadgen_out.read_text())

        # --- the database's word
        pid = product["id"]
        held = f"""FROM orders o JOIN order_lines l ON l.order_id = o.id
                   WHERE l.product_id = {pid} AND o.status IN ('pending', 'paid')"""
        units = int(bench.psql(bench.db_url, f"SELECT COALESCE(SUM(l.quantity), 0) {held}"))
        per_account = int(bench.psql(bench.db_url, f"""SELECT COALESCE(MAX(n), 0) FROM
            (SELECT o.discord_id, COUNT(DISTINCT o.id) AS n {held} GROUP BY o.discord_id) t"""))
        stock_left = bench.psql(bench.db_url, f"SELECT stock FROM products WHERE id = {pid}")
        sales = [parse_ts(r[0]) for r in bench.rows(
            f"SELECT o.created_at {held} ORDER BY o.created_at")]
        events = [(int(r[0]), parse_ts(r[1]), json.loads(r[2])) for r in bench.rows(
            "SELECT id, created_at, data FROM push_events WHERE topic = 'products' ORDER BY id")]
        status, headers, _ = Browser().request("GET", f"{bench.lb}/api/products")
        final_version = headers.get("ETag") or headers.get("etag")

        # --- fan-out
        release_ts = release_at.timestamp()
        first_sale = sales[0] if sales else None
        last_sale = sales[STOCK - 1] if len(sales) >= STOCK else None
        if mode == "drop":
            release_event = next((e for e in events if e[1] >= release_ts), None)
            release_t0 = release_ts
        else:
            release_event = next((e for e in events if first_sale and e[1] >= first_sale), None)
            release_t0 = first_sale
        soldout_event = next((e for e in events if e[2].get("version") == final_version
                              and last_sale and e[1] >= last_sale - 1), None)
        if soldout_event is None:
            soldout_event = next((e for e in events if last_sale and e[1] >= last_sale), None)
        release = fan_out(raw["streams"], release_event[0] if release_event else None, release_t0)
        soldout = fan_out(raw["streams"], soldout_event[0] if soldout_event else None, last_sale)

        checkouts = raw["checkouts"]
        latencies = [(c["answered_us"] - c["sent_us"]) / 1000 for c in checkouts]
        by_status: dict[str, int] = {}
        for c in checkouts:
            by_status[str(c["status"])] = by_status.get(str(c["status"]), 0) + 1
        messages: dict[str, int] = {}
        for c in checkouts:
            if c["status"] != 200:
                key = f'{c["status"]}: {(c["message"] or "")[:160]}'
                messages[key] = messages.get(key, 0) + 1
        answers_200 = sorted(c["answered_us"] / 1e6 for c in checkouts if c["status"] == 200)
        streams = raw["streams"]
        ended = sum(1 for s in streams if s["ended"])
        established_before = sum(1 for s in streams if 0 < s["established_us"] / 1e6 < release_ts)
        # the rush: from release_at to the last checkout answer
        rush = (release_ts, raw["last_answer_us"] / 1e6)
        rush_cpu = {name: sampler.cpu_between(name, *rush) for name in sampler.names()}
        timeline = [[round(t - release_ts, 2)] + [round(v[n][1], 3) for n in sampler.samples[0][1]]
                    for t, v in sampler.samples]
        sends = sorted(c["sent_us"] / 1e6 for c in checkouts)

        return {
            "when": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "mode": mode,
            "machine": {"cores": os.cpu_count()},
            "settings": {
                "buyers": args.buyers, "pressing_twice": args.twice, "streams": args.streams,
                "stock": STOCK, "max_per_account": 1 if mode == "drop" else None,
                "release_in_seconds": args.release_in, "presses_spread_ms": args.spread_ms,
                "presses_offset_ms": args.offset_ms,
                "raised": {
                    "SHOP__EVENTS__MAX_STREAMS_PER_IP": args.streams,
                    "SHOP__CHECKOUT__MAX_PENDING_PER_IP": args.buyers + args.twice,
                    "nginx worker_connections": 2 * args.streams + 4 * (args.buyers + 100),
                    "ulimit -n": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
                },
            },
            "product_id": pid,
            "release_at": release_at.isoformat(),
            "setup": {"link_seconds": phases["linked"]["seconds"],
                      "streams_open_seconds": phases["ready"]["seconds"],
                      "stream_refusals_while_opening": phases["ready"]["refusals"],
                      "streams_established_before_release": established_before},
            "sold": {"units_in_pending_or_paid_orders": units, "stock_left": stock_left,
                     "max_orders_per_discord_account": per_account,
                     "placed_answers": by_status.get("200", 0)},
            "answers_by_status": by_status,
            "refusal_messages": messages,
            "checkout_latency_ms": {
                "count": len(latencies), "p50": percentile(latencies, 50),
                "p95": percentile(latencies, 95), "p99": percentile(latencies, 99),
                "max": max(latencies) if latencies else None,
                "first_sent_after_release_ms": (sends[0] - release_ts) * 1000 if sends else None,
                "last_sent_after_release_ms": (sends[-1] - release_ts) * 1000 if sends else None,
                "samples": latencies,
                "samples_placed": [(c["answered_us"] - c["sent_us"]) / 1000 for c in checkouts
                                   if c["status"] == 200],
            },
            "fan_out": {
                "release": {**release, "from": ("release_at" if mode == "drop" else
                                                "the first sale's orders.created_at")},
                "sold_out": {**soldout, "from": "the 30th sale's orders.created_at",
                             "last_sale_to_its_200_ms": (
                                 (answers_200[STOCK - 1] - last_sale) * 1000
                                 if last_sale and len(answers_200) >= STOCK else None),
                             "event_version": soldout_event[2].get("version")
                             if soldout_event else None,
                             "final_version": final_version},
                "streams_ended_early": ended,
                "resyncs": sum(len(s["resyncs"]) for s in streams),
                "products_events": [[e[0], e[1]] for e in events],
            },
            "processes": {
                name: {"rss_idle_mb": rss_idle[name], "rss_streams_open_mb": rss_streams[name],
                       "rss_after_mb": rss_after[name], "rss_peak_mb": sampler.peak_rss(name),
                       "cpu_seconds_total": cpu_end[name] - cpu_start[name],
                       "cpu_seconds_rush": rush_cpu[name]}
                for name in pids
            },
            "rush_seconds": rush[1] - rush[0],
            "loadavg_before": loadavg_before,
            "rush_cpu_seconds": rush_cpu,
            "cpu_timeline": {"columns": ["seconds after release_at"] + list(sampler.samples[0][1]),
                             "rows": timeline},
            "loadgen_cpu_seconds_total": raw["loadgen_cpu_seconds_total"],
        }
    finally:
        if args.keep and loadgen_out.exists():
            shutil.copy(loadgen_out, Path(args.results) / "drop-raw.json")
        bench.stop()


# --- output ----------------------------------------------------------------------------------


def ms(value) -> str:
    return "-" if value is None else f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def table(result: dict) -> list[tuple[str, str, str, str]]:
    def ok(cond) -> str:
        return "ok" if cond else "MISSED"

    rows = []
    sold = result["sold"]
    status = result["answers_by_status"]
    fives = sum(n for s, n in status.items() if s.startswith("5") or s == "0")
    drop = result["mode"] == "drop"
    rows.append(("units sold (pending/paid orders, DB)", str(sold["units_in_pending_or_paid_orders"]),
                 f"exactly {STOCK}", ok(sold["units_in_pending_or_paid_orders"] == STOCK)))
    rows.append(("orders per Discord account (DB max)", str(sold["max_orders_per_discord_account"]),
                 "max 1", ok(sold["max_orders_per_discord_account"] <= 1) if drop else "- (no cap)"))
    rows.append(("answers by status", ", ".join(f"{s}: {n}" for s, n in sorted(status.items())),
                 "no 5xx", ok(fives == 0)))
    setup = result["setup"]
    streams = result["settings"]["streams"]
    rows.append(("streams established before the release",
                 f"{setup['streams_established_before_release']} of {streams} "
                 f"(opened in {setup['streams_open_seconds']:.1f} s)",
                 "all", ok(setup["streams_established_before_release"] == streams)))
    lat = result["checkout_latency_ms"]
    rows.append(("checkout latency via nginx p50 / p95 / p99",
                 f"{ms(lat['p50'])} / {ms(lat['p95'])} / {ms(lat['p99'])}", "p99 < 500 ms",
                 ok(lat["p99"] is not None and lat["p99"] < 500)))
    for key, label in (("release", "release" if drop else "first sale (no release_at)"),
                       ("sold_out", "sold-out (from the 30th sale)")):
        f = result["fan_out"][key]
        missing = f" ({f['missing']} never)" if f["missing"] else ""
        rows.append((f"{label} fan-out: 95% / 100% of streams",
                     f"{ms(f.get('p95_ms'))} / {ms(f.get('p100_ms'))}{missing}",
                     "< 1 s / < 2 s",
                     ok(f.get("p95_ms") is not None and f["p95_ms"] < 1000
                        and f.get("p100_ms") is not None and f["p100_ms"] < 2000)))
    for name, p in result["processes"].items():
        rows.append((f"{name}: RSS idle -> streams -> after (peak)",
                     f"{p['rss_idle_mb']:.1f} -> {p['rss_streams_open_mb']:.1f} -> "
                     f"{p['rss_after_mb']:.1f} ({p['rss_peak_mb']:.1f}) MB", "< 80 MB",
                     ok(p["rss_peak_mb"] < 80)))
    cpu = result["rush_cpu_seconds"]
    rows.append((f"CPU s from release to last answer ({result['rush_seconds']:.2f} s): instances",
                 " / ".join(f"{cpu[name]:.2f}" for name in result["processes"]), "-", "-"))
    rows.append(("... nginx / PostgreSQL (all) / load generator",
                 f"{cpu.get('nginx', 0):.2f} / {cpu['postgres']:.2f} / "
                 f"{cpu['load generator']:.2f}",
                 "-", "-"))
    waiting = [f"{cpu[name + ' waiting for a CPU']:.2f}" for name in result["processes"]]
    rows.append(("... runnable, waiting for a CPU: instances; nginx / load generator",
                 " / ".join(waiting) + f"; {cpu.get('nginx waiting for a CPU', 0):.2f} / "
                 f"{cpu['load generator waiting for a CPU']:.2f}", "-", "-"))
    ours = sum(v for k, v in cpu.items() if not k.startswith("machine") and "waiting" not in k)
    rows.append(("... the whole machine (others: the rest)",
                 f"{cpu['machine']:.2f} of {2 * result['rush_seconds']:.2f} "
                 f"(softirq {cpu['machine softirq']:.2f}, others "
                 f"{max(0.0, cpu['machine'] - ours - cpu['machine softirq']):.2f}); "
                 f"load before {result['loadavg_before']}",
                 "-", "-"))
    return rows


def wrote(results: Path, drawn: bool) -> str:
    """The closing line: only the files this run wrote (an earlier run's picture is not ours)."""
    if drawn:
        return f"wrote {results / 'drop.json'} and {results / 'drop.png'}"
    line = f"wrote {results / 'drop.json'} (no picture: matplotlib is missing)"
    if (results / "drop.png").exists():
        line += f"; {results / 'drop.png'} is an earlier run's"
    return line


def plot(result: dict, path: Path) -> bool:
    """Draws the picture at `path`; False (and nothing written) without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log(f"matplotlib is missing (pip install matplotlib): {path.name} not drawn")
        return False
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    lat = result["checkout_latency_ms"]
    placed = lat.get("samples_placed") or []
    others = list(lat["samples"])
    for sample in placed:
        others.remove(sample)
    left.hist([placed, others], bins=40, stacked=True, color=["#3a8a4a", "#9ccf9c"],
              label=["200 (placed)", "409/429/other"])
    for pct, style in (("p50", ":"), ("p95", "--"), ("p99", "-")):
        if lat[pct] is not None:
            left.axvline(lat[pct], color="black", linestyle=style, linewidth=1,
                         label=f"{pct} {lat[pct]:.0f} ms")
    left.axvline(500, color="red", linewidth=1, label="target p99 500 ms")
    left.set_title(f"Checkout latency through nginx ({lat['count']} presses)")
    left.set_xlabel("ms")
    left.set_ylabel("presses")
    left.legend()
    for key, label, color in (("release", "release", "#1f6fb4"),
                              ("sold_out", "sold out (from 30th sale)", "#c0392b")):
        delays = sorted(result["fan_out"][key]["delays_ms"])
        if delays:
            n = result["settings"]["streams"]
            right.step(delays, [(i + 1) / n * 100 for i in range(len(delays))], where="post",
                       label=label, color=color)
    right.axhline(95, color="grey", linestyle=":", linewidth=1)
    right.axvline(1000, color="grey", linestyle="--", linewidth=1, label="1 s (95 % target)")
    right.axvline(2000, color="grey", linestyle="-", linewidth=1, label="2 s (100 % target)")
    right.set_title(f"Fan-out to {result['settings']['streams']} event streams")
    right.set_xlabel("ms after the release / the 30th sale")
    right.set_ylabel("% of streams with the event")
    right.set_ylim(0, 101)
    right.legend(loc="lower right")
    fig.suptitle(f"Garden Shop drop bench {result['when']} ({result['mode']}; 3 instances, "
                 "nginx, PostgreSQL, 2 cores)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main() -> int:
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=f"{target}/release/garden-shop")
    parser.add_argument("--loadgen", default=os.environ.get(
        "DROP_LOADGEN", str(ROOT / "bench" / "drop" / "target" / "release" / "drop-load")))
    parser.add_argument("--port", type=int, default=int(os.environ.get("DROP_PORT", "18650")),
                        help="nginx; the instances on the next three, the fake Discord on +4")
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--buyers", type=int, default=300)
    parser.add_argument("--twice", type=int, default=50)
    parser.add_argument("--release-in", type=float, default=4.0,
                        help="seconds from creating the drop to its release_at")
    parser.add_argument("--spread-ms", type=int, default=1000)
    parser.add_argument("--offset-ms", type=int, default=50)
    parser.add_argument("--linger-ms", type=int, default=5000)
    parser.add_argument("--mode", choices=["auto", "drop", "plain"], default="auto")
    parser.add_argument("--rust-log", default="warn")
    parser.add_argument("--results", default=str(ROOT / "bench" / "results"))
    parser.add_argument("--keep", action="store_true", help="keep the database and logs")
    parser.add_argument("--profile", help="a directory: perf over the instances around the "
                        "release, PostgreSQL's sessions every 50 ms, the instances' logs")
    parser.add_argument("--profile-seconds", type=float, default=4.0)
    parser.add_argument("--nginx-workers", default="auto",
                        help="nginx's worker_processes: auto (one per core), as Debian's own "
                        "nginx.conf and the production configuration in docs/operations.md")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results = Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    result = run(args)
    rows = table(result)
    drawn = plot(result, results / "drop.png")
    # the per-stream delays as their percentiles 0..100 (the whole lists are 2 x streams long)
    for key in ("release", "sold_out"):
        fan = result["fan_out"][key]
        delays = fan.pop("delays_ms")
        fan["percentiles_ms"] = [percentile(delays, p) for p in range(1, 101)] if delays else []
    (results / "drop.json").write_text(json.dumps({**result, "table": rows}, indent=1) + "\n")
    print(f"\nGarden Shop drop bench ({result['mode']}, {os.cpu_count()} cores, {result['when']})")
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    for name, value, target_text, verdict in rows:
        print(f"  {name:<{width}}  {value:<{vwidth}}  target {target_text:<16} {verdict}")
    raised = result["settings"]["raised"]
    print("  raised for one client address: " + ", ".join(f"{k}={v}" for k, v in raised.items()))
    if result["refusal_messages"]:
        print("  refusals: " + "; ".join(f"{n}x {m}" for m, n in result["refusal_messages"].items()))
    print("  " + wrote(results, drawn))
    return 0 if all(r[3] in ("ok", "-", "- (no cap)") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
