#!/usr/bin/env python3
"""Server push benchmarks (issue 14), standard library only.

1. Chat message-to-screen latency through two instances on one PostgreSQL database: a shopper's
   event stream is open on instance B; the message is sent through instance A; "on screen" is
   when B's stream has the chat event AND B's /api/chat/history (the browser's refetch) shows
   the message. Prints p50/p95 (target p95 < 200 ms).
2. RSS of one instance with 1,000 idle event streams open, against the same instance idle
   (target < 30 MB extra), and the CPU it uses while they stay idle.

Usage: bench/push.py [--bin target/release/garden-shop] [--streams 1000] [--messages 200]
Needs PostgreSQL (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres) and the
built frontend is not needed. Ports 18590-18591.
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


def start(binary, port, database_url, media, extra=None):
    env = dict(os.environ)
    env.update({
        "SHOP_ENV": "test",
        "DATABASE_URL": database_url,
        "SHOP__SERVER__PORT": str(port),
        "SHOP__SERVER__HOST": "127.0.0.1",
        "SHOP__MEDIA__ROOT": media,
        "SHOP__SEED__DEMO_DATA": "false",
        "SHOP__CHAT__MAX_MESSAGES_PER_MINUTE": "1000000",
        "SHOP__EVENTS__MAX_STREAMS_PER_IP": "100000",
        "SHOP__EVENTS__MAX_STREAMS": "100000",
        "RUST_LOG": "warn",
    })
    env.update(extra or {})
    process = subprocess.Popen([binary], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return process
        except Exception:
            time.sleep(0.1)
    process.kill()
    sys.exit(f"the server on port {port} did not start")


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


async def request(port, method, path, body=None):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
    writer.write(head.encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    headers, _, payload = raw.partition(b"\r\n\r\n")
    status = int(headers.split()[1])
    if b"chunked" in headers.lower():
        out, rest = b"", payload
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                break
            out, rest = out + rest[:size], rest[size + 2:]
        payload = out
    return status, payload


async def open_stream(port, query=""):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/events{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n")[0]:
        raise RuntimeError(head.decode(errors="replace"))
    return reader, writer


async def next_event(reader, topic):
    buffer = b""
    while True:
        buffer += await reader.read(65536)
        for block in buffer.split(b"\n\n"):
            if f"event: {topic}".encode() in block:
                return block


async def latency(port_a, port_b, messages):
    session = str(uuid.uuid4())
    status, body = await request(port_a, "POST", "/api/chat/start-ai", {"session_id": session})
    assert status == 200, body
    chat = json.loads(body)["chat_id"]
    reader, writer = await open_stream(port_b, f"?chat_session={session}")
    await next_event(reader, "ready")
    history = f"/api/chat/history?chat_id={chat}&session_id={session}"
    samples = []
    for n in range(messages):
        text = f"bench message {n} {uuid.uuid4().hex[:6]}"
        started = time.perf_counter()
        send = asyncio.create_task(request(port_a, "POST", "/api/chat/send",
                                           {"chat_id": chat, "session_id": session,
                                            "message": text}))
        await next_event(reader, "chat")
        while True:
            _, page = await request(port_b, "GET", history)
            if text.encode() in page:
                break
        samples.append((time.perf_counter() - started) * 1000)
        await send
        # let the bot's answer and its event pass before the next message
        await asyncio.sleep(0.05)
        reader._buffer.clear()  # noqa: SLF001 - drop the reply's event
    writer.close()
    samples.sort()
    return samples


async def idle_streams(port, pid, count):
    await asyncio.sleep(1)
    before = rss_kib(pid)
    streams = []
    for _ in range(count):
        streams.append(await open_stream(port))
    await asyncio.sleep(2)
    after = rss_kib(pid)
    cpu_start = cpu_seconds(pid)
    await asyncio.sleep(10)
    cpu = cpu_seconds(pid) - cpu_start
    for _, writer in streams:
        writer.close()
    return before, after, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release/garden-shop"))
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=200)
    args = parser.parse_args()
    name = f"bench_push_{uuid.uuid4().hex[:8]}"
    base = PG.rsplit("/", 1)[0]
    subprocess.run(["psql", PG, "-qc", f"CREATE DATABASE {name}"], check=True)
    url = f"{base}/{name}"
    media = tempfile.mkdtemp()
    servers = []
    try:
        a = start(args.bin, 18590, url, media)
        servers.append(a)
        b = start(args.bin, 18591, url, media)
        servers.append(b)
        samples = asyncio.run(latency(18590, 18591, args.messages))
        p50 = statistics.median(samples)
        p95 = samples[int(len(samples) * 0.95) - 1]
        print(f"chat message to screen, two instances (PostgreSQL LISTEN/NOTIFY), "
              f"{len(samples)} messages: p50 {p50:.1f} ms, p95 {p95:.1f} ms "
              f"(target p95 < 200 ms)")
        before, after, cpu = asyncio.run(idle_streams(18591, b.pid, args.streams))
        print(f"RSS with {args.streams} idle event streams: {before / 1024:.1f} MB idle -> "
              f"{after / 1024:.1f} MB (+{(after - before) / 1024:.1f} MB, target < 30 MB); "
              f"CPU over 10 s idle: {cpu:.2f} s")
    finally:
        for server in servers:
            server.kill()
            server.wait()
        subprocess.run(["psql", PG, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


if __name__ == "__main__":
    main()
