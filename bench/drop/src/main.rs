//! The drop benchmark's load generator (issue 25, `just bench-drop`; bench/drop.py drives it).
//!
//! 1. Links `--buyers` Discord identities, each buyer with its own cookie jar, through the shop's
//!    real OAuth flow against the fake Discord (bench/drop.py serves it): GET
//!    /api/discord/authorize, the fake's authorize page (which redirects back with a code naming
//!    the buyer's user id), POST /api/discord-auth {code, state}.
//! 2. Opens `--streams` event streams (GET /api/events) and waits until each one has sent its
//!    first bytes (`retry:` and the `ready` event); refused ones (429/503) are retried.
//! 3. Prints `{"phase":"ready",...}` on stdout and reads one JSON line from stdin:
//!    `{"product_id", "price", "release_at_ms"}` (`release_at_ms`: Unix milliseconds).
//! 4. Every buyer presses checkout once, `--twice` of them a second time, each press at
//!    `release_at + --offset-ms + a random moment of --spread-ms`; every answer is timed.
//! 5. Keeps reading the streams until `--linger-ms` after the last answer, then writes
//!    everything measured to `--out` (JSON) and prints `{"phase":"done"}`.
//!
//! Times are wall-clock Unix microseconds, comparable with the database's (same machine).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::Semaphore;

fn now_us() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0)
}

/// This process's user + system CPU seconds.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

#[derive(Debug, Clone)]
struct Args {
    base: String,
    buyers: usize,
    twice: usize,
    streams: usize,
    open_concurrency: usize,
    link_concurrency: usize,
    offset_ms: u64,
    spread_ms: u64,
    linger_ms: u64,
    out: String,
}

impl Args {
    fn parse() -> Args {
        let mut args = Args {
            base: "http://127.0.0.1:18650".into(),
            buyers: 300,
            twice: 50,
            streams: 5000,
            open_concurrency: 100,
            link_concurrency: 20,
            offset_ms: 50,
            spread_ms: 1000,
            linger_ms: 5000,
            out: "drop-raw.json".into(),
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
            let number = || {
                value
                    .parse::<u64>()
                    .unwrap_or_else(|_| panic!("{flag}: a number"))
            };
            match flag.as_str() {
                "--base" => args.base = value.trim_end_matches('/').to_owned(),
                "--buyers" => args.buyers = number() as usize,
                "--twice" => args.twice = number() as usize,
                "--streams" => args.streams = number() as usize,
                "--open-concurrency" => args.open_concurrency = number() as usize,
                "--link-concurrency" => args.link_concurrency = number() as usize,
                "--offset-ms" => args.offset_ms = number(),
                "--spread-ms" => args.spread_ms = number(),
                "--linger-ms" => args.linger_ms = number(),
                "--out" => args.out = value,
                other => panic!("unknown flag {other}"),
            }
        }
        args
    }
}

fn say(value: serde_json::Value) {
    println!("{value}");
}

// --- buyers -----------------------------------------------------------------------------------

struct Buyer {
    index: usize,
    discord_id: String,
    client: reqwest::Client,
}

fn buyer_client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .http1_only()
        .pool_idle_timeout(Duration::from_secs(300))
        .timeout(Duration::from_secs(60))
        .build()
        .expect("an HTTP client")
}

/// The shop's Discord linking, as a browser does it, against the fake Discord.
async fn link(base: &str, index: usize) -> Result<Buyer, String> {
    let discord_id = format!("{}", 300_000_000_000_000_000u64 + index as u64 + 1);
    let client = buyer_client();
    let answer = client
        .get(format!("{base}/api/discord/authorize"))
        .send()
        .await
        .map_err(|e| format!("authorize: {e}"))?;
    let location = answer
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| format!("authorize answered {} without Location", answer.status()))?
        .to_owned();
    // the fake Discord's consent page: who signs in is ours to say
    let consent = format!("{location}&login={discord_id}");
    let answer = client
        .get(&consent)
        .send()
        .await
        .map_err(|e| format!("fake discord authorize: {e}"))?;
    let back = answer
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| "the fake Discord did not redirect back".to_owned())?;
    let back = url::Url::parse(back).map_err(|e| format!("redirect back: {e}"))?;
    let query: std::collections::HashMap<String, String> =
        back.query_pairs().into_owned().collect();
    // the shop's callback page posts the code and state (the SPA's /discord/callback)
    let answer = client
        .post(format!("{base}/api/discord-auth"))
        .json(&json!({ "code": query.get("code"), "state": query.get("state") }))
        .send()
        .await
        .map_err(|e| format!("discord-auth: {e}"))?;
    let status = answer.status();
    let body = answer.text().await.unwrap_or_default();
    if status != 200 || !body.contains(&discord_id) {
        return Err(format!("discord-auth: {status} {body}"));
    }
    Ok(Buyer {
        index,
        discord_id,
        client,
    })
}

#[derive(Serialize)]
struct Press {
    buyer: usize,
    discord_id: String,
    press: u8,
    scheduled_us: i64,
    sent_us: i64,
    answered_us: i64,
    status: u16,
    order_id: Option<i64>,
    message: Option<String>,
}

async fn press(
    buyer: Arc<Buyer>,
    number: u8,
    base: String,
    payload: Arc<serde_json::Value>,
    at_us: i64,
) -> Press {
    let wait = (at_us - now_us()).max(0) as u64;
    tokio::time::sleep(Duration::from_micros(wait)).await;
    let sent_us = now_us();
    let result = buyer
        .client
        .post(format!("{base}/api/stripe/checkout"))
        .json(&*payload)
        .send()
        .await;
    let (status, body) = match result {
        Ok(answer) => {
            let status = answer.status().as_u16();
            (status, answer.text().await.unwrap_or_default())
        }
        Err(error) => (0, error.to_string()),
    };
    let answered_us = now_us();
    let parsed: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    let order_id = parsed.get("order_id").and_then(|v| v.as_i64());
    let message = if status == 200 {
        None
    } else {
        // the whole answer (its message and what it names: problems, errors), shortened
        Some(body.chars().take(300).collect())
    };
    Press {
        buyer: buyer.index,
        discord_id: buyer.discord_id.clone(),
        press: number,
        scheduled_us: at_us,
        sent_us,
        answered_us,
        status,
        order_id,
        message,
    }
}

// --- streams ----------------------------------------------------------------------------------

#[derive(Default, Serialize)]
struct StreamLog {
    opened_us: i64,
    /// When its first bytes (`retry:` and `ready`) arrived.
    established_us: i64,
    ready_id: Option<i64>,
    /// (event id, arrival in Unix µs) of every `products` event.
    products: Vec<(i64, i64)>,
    /// (event id or -1, arrival) of `resync` events.
    resyncs: Vec<(i64, i64)>,
    other_events: usize,
    /// Set when the stream ended or failed before the end of the run.
    ended: Option<String>,
    attempts: u32,
}

/// Splits the SSE text into events; returns the unparsed rest.
fn parse_events(buffer: &mut String, arrival: i64, log: &mut StreamLog) {
    while let Some(end) = buffer.find("\n\n") {
        let block: String = buffer.drain(..end + 2).collect();
        let mut id = None;
        let mut event = None;
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("id:") {
                id = v.trim().parse::<i64>().ok();
            } else if let Some(v) = line.strip_prefix("event:") {
                event = Some(v.trim().to_owned());
            }
        }
        match event.as_deref() {
            Some("products") => log.products.push((id.unwrap_or(-1), arrival)),
            Some("ready") => log.ready_id = id,
            Some("resync") => log.resyncs.push((id.unwrap_or(-1), arrival)),
            Some(_) => log.other_events += 1,
            None => {}
        }
    }
}

struct Opened {
    response: reqwest::Response,
    log: StreamLog,
    buffer: String,
}

/// Opens one stream and reads until its first bytes; retries refusals.
async fn open_stream(
    client: &reqwest::Client,
    base: &str,
    refusals: &Mutex<std::collections::BTreeMap<String, usize>>,
) -> Opened {
    let mut log = StreamLog::default();
    loop {
        log.attempts += 1;
        log.opened_us = now_us();
        let refused = match client.get(format!("{base}/api/events")).send().await {
            Ok(mut response) if response.status() == 200 => match response.chunk().await {
                Ok(Some(bytes)) => {
                    let arrival = now_us();
                    log.established_us = arrival;
                    let mut buffer = String::from_utf8_lossy(&bytes).into_owned();
                    parse_events(&mut buffer, arrival, &mut log);
                    return Opened {
                        response,
                        log,
                        buffer,
                    };
                }
                Ok(None) => "ended before its first bytes".to_owned(),
                Err(e) => format!("read error: {e}"),
            },
            Ok(response) => format!("status {}", response.status().as_u16()),
            Err(e) => format!("connect error: {}", e.without_url()),
        };
        *refusals.lock().unwrap().entry(refused).or_insert(0) += 1;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn read_stream(mut opened: Opened, stop: Arc<tokio::sync::Notify>) -> StreamLog {
    loop {
        tokio::select! {
            chunk = opened.response.chunk() => match chunk {
                Ok(Some(bytes)) => {
                    let arrival = now_us();
                    opened.buffer.push_str(&String::from_utf8_lossy(&bytes));
                    parse_events(&mut opened.buffer, arrival, &mut opened.log);
                }
                Ok(None) => {
                    opened.log.ended = Some(format!("ended at {}", now_us()));
                    return opened.log;
                }
                Err(e) => {
                    opened.log.ended = Some(format!("error at {}: {e}", now_us()));
                    return opened.log;
                }
            },
            _ = stop.notified() => return opened.log,
        }
    }
}

#[derive(Deserialize)]
struct Go {
    product_id: i64,
    price: f64,
    release_at_ms: i64,
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let started = Instant::now();

    // 1. buyers
    let gate = Arc::new(Semaphore::new(args.link_concurrency));
    let mut linking = Vec::new();
    for index in 0..args.buyers {
        let gate = Arc::clone(&gate);
        let base = args.base.clone();
        linking.push(tokio::spawn(async move {
            let _permit = gate.acquire().await;
            link(&base, index).await
        }));
    }
    let mut buyers = Vec::new();
    for job in linking {
        match job.await.expect("a linking task") {
            Ok(buyer) => buyers.push(Arc::new(buyer)),
            Err(error) => {
                eprintln!("drop-load: linking failed: {error}");
                std::process::exit(2);
            }
        }
    }
    say(
        json!({"phase": "linked", "buyers": buyers.len(), "seconds": started.elapsed().as_secs_f64()}),
    );

    // 2. streams (one client: each open stream holds its own connection)
    let stream_client = reqwest::Client::builder()
        .http1_only()
        .pool_max_idle_per_host(0)
        .tcp_nodelay(true)
        .build()
        .expect("an HTTP client");
    let refusals = Arc::new(Mutex::new(std::collections::BTreeMap::new()));
    let stop = Arc::new(tokio::sync::Notify::new());
    let established = Arc::new(AtomicUsize::new(0));
    let (opened_tx, mut opened_rx) = tokio::sync::mpsc::unbounded_channel();
    let open_gate = Arc::new(Semaphore::new(args.open_concurrency));
    let streams_started = Instant::now();
    let mut readers = Vec::new();
    for _ in 0..args.streams {
        let client = stream_client.clone();
        let base = args.base.clone();
        let refusals = Arc::clone(&refusals);
        let stop = Arc::clone(&stop);
        let established = Arc::clone(&established);
        let gate = Arc::clone(&open_gate);
        let opened_tx = opened_tx.clone();
        readers.push(tokio::spawn(async move {
            let opened = {
                let _permit = gate.acquire().await;
                open_stream(&client, &base, &refusals).await
            };
            established.fetch_add(1, Ordering::SeqCst);
            let _ = opened_tx.send(());
            read_stream(opened, stop).await
        }));
    }
    drop(opened_tx);
    let mut last_report = Instant::now();
    while established.load(Ordering::SeqCst) < args.streams {
        if opened_rx.recv().await.is_none() {
            break;
        }
        if last_report.elapsed() > Duration::from_secs(2) {
            eprintln!(
                "drop-load: {} of {} streams established",
                established.load(Ordering::SeqCst),
                args.streams
            );
            last_report = Instant::now();
        }
    }
    let refused: serde_json::Value = json!(*refusals.lock().unwrap());
    say(json!({
        "phase": "ready",
        "streams": established.load(Ordering::SeqCst),
        "seconds": streams_started.elapsed().as_secs_f64(),
        "refusals": refused,
    }));

    // 3. the drop
    let mut line = String::new();
    BufReader::new(tokio::io::stdin())
        .read_line(&mut line)
        .await
        .expect("the GO line");
    let go: Go = serde_json::from_str(line.trim()).expect("a GO line as JSON");
    let cpu_at_go = cpu_seconds();
    let payload = Arc::new(json!({
        "items": [{ "id": go.product_id, "qty": 1 }],
        "total": go.price,
        "promo_code": "",
    }));
    let release_us = go.release_at_ms * 1000;
    let mut rng = rand::thread_rng();
    let mut presses = Vec::new();
    let spread_us = (args.spread_ms * 1000).max(1) as i64;
    for (n, buyer) in buyers.iter().enumerate() {
        let times = if n < args.twice { 2 } else { 1 };
        for number in 1..=times {
            let at = release_us + (args.offset_ms * 1000) as i64 + rng.gen_range(0..spread_us);
            let mut body = (*payload).clone();
            body["email"] = json!(format!("buyer{}@example.com", buyer.index + 1));
            body["roblox_username"] = json!(format!("Buyer_{}", buyer.index + 1));
            presses.push(tokio::spawn(press(
                Arc::clone(buyer),
                number,
                args.base.clone(),
                Arc::new(body),
                at,
            )));
        }
    }
    let mut answers = Vec::new();
    for job in presses {
        answers.push(job.await.expect("a checkout task"));
    }
    let last_answer = answers.iter().map(|a| a.answered_us).max().unwrap_or(0);
    let placed = answers.iter().filter(|a| a.status == 200).count();
    say(json!({"phase": "answered", "presses": answers.len(), "placed": placed}));
    tokio::time::sleep(Duration::from_millis(args.linger_ms)).await;
    let cpu_drop = cpu_seconds() - cpu_at_go;
    stop.notify_waiters();
    // a reader that was mid-chunk misses the first notify: keep notifying until all are in
    let stopper = {
        let stop = Arc::clone(&stop);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(50)).await;
                stop.notify_waiters();
            }
        })
    };
    let mut logs = Vec::new();
    for reader in readers {
        logs.push(reader.await.expect("a stream task"));
    }
    stopper.abort();
    let out = json!({
        "release_at_us": release_us,
        "last_answer_us": last_answer,
        "loadgen_cpu_seconds_drop": cpu_drop,
        "loadgen_cpu_seconds_total": cpu_seconds(),
        "stream_refusals": refused,
        "checkouts": answers,
        "streams": logs,
    });
    std::fs::write(&args.out, serde_json::to_vec(&out).expect("JSON")).expect("writing --out");
    say(json!({"phase": "done"}));
}
