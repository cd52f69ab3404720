#!/usr/bin/env python3
"""Server push benchmarks (issue 14), standard library only.

Two instances of the shop (A and B) on one fresh PostgreSQL database, so every change crosses
from A to B through LISTEN/NOTIFY. "On screen" is what the browser does: the viewer's event
stream on B names the chat, and B's answer to the call the page refetches shows the change.

1. A new live-chat request in the staff panel: a guest asks for a live agent through A
   (POST /api/chat/start-live); a staff member's stream on B gets the chat's event and B's
   GET /api/admin/chats lists the chat. Target < 500 ms.
2. Shopper to staff: the shopper's message goes through A (POST /api/chat/send); the staff
   stream on B gets the event and B's GET /api/admin/chats/{id}/messages has the message.
3. Staff to shopper: staff reply through A (POST /api/chat/admin-reply); the shopper's stream on
   B gets the event and B's GET /api/chat/history has the reply. Targets p95 < 200 ms.
4. RSS of instance B with 1,000 idle event streams open, against the same instance idle
   (target < 30 MB extra), and the CPU it uses while they stay idle (target: none).

Prints a human line per measurement on stderr and, on stdout, one tab-separated row per result
(NAME, VALUE, TARGET, VERDICT) for bench/measure/40-push.sh.

Usage: bench/push.py [--bin target/release/garden-shop] [--port 18590] [--streams 1000]
       [--messages 100] [--requests 50]
Needs PostgreSQL (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres); the
built frontend is not needed. Uses the ports --port and --port + 1.
"""
import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PG = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
STAFF_EMAIL = "bench-staff@example.com"
STAFF_PASSWORD = "bench staff password 1"


def shop_env(port, database_url, media):
    env = dict(os.environ)
    env.update({
        "SHOP_ENV": "test",
        "DATABASE_URL": database_url,
        "SHOP__SERVER__PORT": str(port),
        "SHOP__SERVER__HOST": "127.0.0.1",
        "SHOP__MEDIA__ROOT": media,
        "SHOP__MAIL__OUTBOX_DIR": os.path.join(media, "outbox"),
        "SHOP__SEED__DEMO_DATA": "false",
        "SHOP__CHAT__MAX_MESSAGES_PER_MINUTE": "1000000",
        "SHOP__CHAT__MAX_LIVE_PER_IP_PER_HOUR": "1000000",
        "SHOP__EVENTS__MAX_STREAMS_PER_IP": "100000",
        "SHOP__EVENTS__MAX_STREAMS": "100000",
        "RUST_LOG": "warn",
    })
    return env


def start(binary, port, database_url, media):
    process = subprocess.Popen([binary], cwd=ROOT, env=shop_env(port, database_url, media),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return process
        except Exception:
            if process.poll() is not None:
                break
            time.sleep(0.1)
    process.kill()
    sys.exit(f"the server on port {port} did not start")


def create_staff(binary, port, database_url, media):
    subprocess.run([binary, "users", "create", STAFF_EMAIL, "--role", "admin", "--name", "Bench"],
                   cwd=ROOT, env=shop_env(port, database_url, media),
                   input=STAFF_PASSWORD + "\n", text=True, check=True,
                   stdout=subprocess.DEVNULL)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def dechunk(payload):
    out, rest = b"", payload
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2:]
    return out


async def request(port, method, path, body=None, cookie=None):
    """One request on its own connection: (status, headers as bytes, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n")
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    headers, _, payload = raw.partition(b"\r\n\r\n")
    status = int(headers.split()[1])
    if b"transfer-encoding: chunked" in headers.lower():
        payload = dechunk(payload)
    return status, headers, payload


async def login(port):
    status, headers, body = await request(port, "POST", "/api/login",
                                          {"email": STAFF_EMAIL, "password": STAFF_PASSWORD})
    assert status == 200, body
    for line in headers.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"set-cookie" and value.strip().startswith(b"garden_session="):
            return value.strip().split(b";")[0].decode()
    raise RuntimeError("the login set no session cookie")


class Stream:
    """An open GET /api/events: its events in order, as (event, data) pairs."""

    def __init__(self, reader, writer, chunked):
        self.reader, self.writer, self.chunked = reader, writer, chunked
        self.raw = b""      # bytes read and not yet de-chunked
        self.text = b""     # de-chunked bytes not yet split into events
        self.events = []

    @classmethod
    async def open(cls, port, query="", cookie=None):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        head = f"GET /api/events{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        writer.write(head.encode() + b"\r\n")
        await writer.drain()
        headers = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in headers.split(b"\r\n")[0]:
            raise RuntimeError(headers.decode(errors="replace"))
        stream = cls(reader, writer, b"transfer-encoding: chunked" in headers.lower())
        await stream.wait(lambda event, _: event == "ready")
        return stream

    def _parse(self):
        if self.chunked:
            while True:
                line_end = self.raw.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(self.raw[:line_end].split(b";")[0], 16)
                if len(self.raw) < line_end + 2 + size + 2:
                    break
                self.text += self.raw[line_end + 2:line_end + 2 + size]
                self.raw = self.raw[line_end + 2 + size + 2:]
        else:
            self.text, self.raw = self.text + self.raw, b""
        while b"\n\n" in self.text:
            block, self.text = self.text.split(b"\n\n", 1)
            fields = {}
            for line in block.decode().split("\n"):
                if line and not line.startswith(":"):
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()
            if "event" in fields:
                self.events.append((fields["event"], json.loads(fields.get("data") or "null")))

    async def drop(self):
        """Forgets the events received so far (the next wait looks only at newer ones)."""
        while True:
            try:
                chunk = await asyncio.wait_for(self.reader.read(65536), 0.005)
            except asyncio.TimeoutError:
                break
            if not chunk:
                raise RuntimeError("the event stream ended")
            self.raw += chunk
            self._parse()
        self.events.clear()

    async def wait(self, predicate):
        """The first (event, data) received that matches, dropping those before it."""
        while True:
            while self.events:
                event, data = self.events.pop(0)
                if predicate(event, data):
                    return event, data
            chunk = await self.reader.read(65536)
            if not chunk:
                raise RuntimeError("the event stream ended")
            self.raw += chunk
            self._parse()

    def close(self):
        self.writer.close()


def about(chat):
    return lambda event, data: event == "chat" and data and data.get("chat_id") == chat


async def until_on_screen(stream, chat, refetch, shown):
    """Waits for the chat's events on the stream, refetching after each, until it shows."""
    while True:
        await stream.wait(about(chat))
        status, _, page = await refetch()
        if status == 200 and shown(page):
            return


def summary(samples):
    samples = sorted(samples)
    p95 = samples[max(0, -(-len(samples) * 95 // 100) - 1)]
    return statistics.median(samples), p95


async def chat_latencies(port_a, port_b, messages, requests):
    cookie_a = await login(port_a)
    cookie_b = await login(port_b)
    staff = await Stream.open(port_b, "?staff=1", cookie_b)

    # 1. new live-chat requests (each a new guest), A -> the staff panel on B
    new_requests = []
    for _ in range(requests):
        session = str(uuid.uuid4())
        await staff.drop()
        started = time.perf_counter()
        ask = asyncio.create_task(request(port_a, "POST", "/api/chat/start-live",
                                          {"session_id": session}))
        while True:
            await staff.wait(lambda e, d: e == "chat" and d and d.get("status") == "pending")
            status, _, page = await request(port_b, "GET", "/api/admin/chats", cookie=cookie_b)
            shown = time.perf_counter()
            answer = await ask  # the chat's id, to tell it from others in the list
            assert answer[0] == 200, answer[2]
            chat = json.loads(answer[2])["chat_id"]
            if status == 200 and chat.encode() in page:
                break
        new_requests.append((shown - started) * 1000)
        await asyncio.sleep(0.05)

    # one connected chat for the two directions: the last guest's, accepted by staff on A
    session = str(uuid.uuid4())
    status, _, body = await request(port_a, "POST", "/api/chat/start-live", {"session_id": session})
    assert status == 200, body
    chat = json.loads(body)["chat_id"]
    status, _, body = await request(port_a, "POST", f"/api/admin/chats/{chat}/accept",
                                    cookie=cookie_a)
    assert status == 200, body
    shopper = await Stream.open(port_b, f"?chat_session={session}")

    # 2. shopper (through A) -> staff screen (B)
    to_staff = []
    for n in range(messages):
        text = f"shopper message {n} {uuid.uuid4().hex[:8]}"
        await staff.drop()
        started = time.perf_counter()
        send = asyncio.create_task(request(port_a, "POST", "/api/chat/send",
                                           {"chat_id": chat, "session_id": session,
                                            "message": text}))
        await until_on_screen(
            staff, chat,
            lambda: request(port_b, "GET", f"/api/admin/chats/{chat}/messages", cookie=cookie_b),
            lambda page: text.encode() in page)
        to_staff.append((time.perf_counter() - started) * 1000)
        status, _, body = await send
        assert status == 200, body
        await asyncio.sleep(0.05)

    # 3. staff (through A) -> shopper screen (B)
    to_shopper = []
    history = f"/api/chat/history?chat_id={chat}&session_id={session}"
    for n in range(messages):
        text = f"staff reply {n} {uuid.uuid4().hex[:8]}"
        await shopper.drop()
        started = time.perf_counter()
        send = asyncio.create_task(request(port_a, "POST", "/api/chat/admin-reply",
                                           {"chat_id": chat, "message": text}, cookie=cookie_a))
        await until_on_screen(shopper, chat, lambda: request(port_b, "GET", history),
                              lambda page: text.encode() in page)
        to_shopper.append((time.perf_counter() - started) * 1000)
        status, _, body = await send
        assert status == 200, body
        await asyncio.sleep(0.05)

    staff.close()
    shopper.close()
    return new_requests, to_staff, to_shopper


async def idle_streams(port, pid, count):
    await asyncio.sleep(1)
    before = rss_kib(pid)
    streams = []
    for _ in range(count):
        streams.append(await Stream.open(port))
    await asyncio.sleep(2)
    after = rss_kib(pid)
    cpu_start = cpu_seconds(pid)
    await asyncio.sleep(10)
    cpu = cpu_seconds(pid) - cpu_start
    for stream in streams:
        stream.close()
    return before, after, cpu


def row(name, value, target, ok):
    verdict = "-" if ok is None else ("ok" if ok else "MISSED")
    print(f"{name}\t{value}\t{target}\t{verdict}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release/garden-shop"))
    parser.add_argument("--port", type=int, default=18590)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    name = f"bench_push_{uuid.uuid4().hex[:8]}"
    base = PG.rsplit("/", 1)[0]
    subprocess.run(["psql", PG, "-qc", f"CREATE DATABASE {name}"], check=True)
    url = f"{base}/{name}"
    media = tempfile.mkdtemp()
    servers = []
    port_a, port_b = args.port, args.port + 1
    try:
        a = start(args.bin, port_a, url, media)
        servers.append(a)
        b = start(args.bin, port_b, url, media)
        servers.append(b)
        create_staff(args.bin, port_a, url, media)
        new_requests, to_staff, to_shopper = asyncio.run(
            chat_latencies(port_a, port_b, args.messages, args.requests))
        for label, samples, target in (
            ("new live-chat request -> staff panel", new_requests, 500),
            ("chat: shopper -> staff screen", to_staff, 200),
            ("chat: staff reply -> shopper screen", to_shopper, 200),
        ):
            p50, p95 = summary(samples)
            print(f"{label}, two instances (PostgreSQL LISTEN/NOTIFY), {len(samples)} samples: "
                  f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {max(samples):.1f} ms",
                  file=sys.stderr)
            row(f"{label} (2 instances): p50 / p95", f"{p50:.1f} / {p95:.1f} ms",
                f"p95 < {target} ms", p95 < target)
        before, after, cpu = asyncio.run(idle_streams(port_b, b.pid, args.streams))
        extra = (after - before) / 1024
        print(f"RSS with {args.streams} idle event streams: {before / 1024:.1f} MB idle -> "
              f"{after / 1024:.1f} MB (+{extra:.1f} MB); CPU over 10 s idle: {cpu:.2f} s",
              file=sys.stderr)
        row(f"{args.streams} idle event streams: extra RSS", f"+{extra:.1f} MB", "< 30 MB",
            extra < 30)
        # the heartbeat (every events.heartbeat_seconds) and the background loops cost a little
        row(f"{args.streams} idle event streams: CPU over 10 s", f"{cpu:.2f} s", "~0 s",
            cpu < 0.2)
    finally:
        for server in servers:
            server.kill()
            server.wait()
        subprocess.run(["psql", PG, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


if __name__ == "__main__":
    main()
