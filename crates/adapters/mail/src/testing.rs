//! A small SMTP server (RFC 5321 subset: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT)
//! listening on 127.0.0.1, which keeps every message it accepts. It offers no STARTTLS and
//! no AUTH, like a local relay.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

/// One accepted message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedMail {
    pub from: String,
    pub to: Vec<String>,
    /// The message as sent in DATA, dot-stuffing undone.
    pub data: String,
}

pub struct SmtpTestServer {
    pub port: u16,
    received: Arc<Mutex<Vec<ReceivedMail>>>,
    task: tokio::task::JoinHandle<()>,
}

impl SmtpTestServer {
    /// Listens on a free port.
    pub async fn start() -> std::io::Result<Self> {
        Self::start_on(0).await
    }

    /// Listens on this port (0: any free one).
    pub async fn start_on(port: u16) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let port = listener.local_addr()?.port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&received);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let keep = Arc::clone(&keep);
                tokio::spawn(async move {
                    if let Err(error) = session(stream, keep).await {
                        tracing::debug!(%error, "test SMTP session ended");
                    }
                });
            }
        });
        Ok(SmtpTestServer {
            port,
            received,
            task,
        })
    }

    /// Every message accepted so far, oldest first.
    pub fn received(&self) -> Vec<ReceivedMail> {
        self.received
            .lock()
            .map(|messages| messages.clone())
            .unwrap_or_default()
    }
}

impl Drop for SmtpTestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn session(stream: TcpStream, keep: Arc<Mutex<Vec<ReceivedMail>>>) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    write
        .write_all(b"220 localhost test SMTP ready\r\n")
        .await?;
    let mut from = String::new();
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_owned();
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        let answer: &[u8] = match verb.as_str() {
            "EHLO" => b"250-localhost greets you\r\n250-8BITMIME\r\n250 SIZE 10485760\r\n",
            "HELO" => b"250 localhost\r\n",
            "MAIL" => {
                from = address(&command);
                to.clear();
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(address(&command));
                b"250 OK\r\n"
            }
            "DATA" => {
                write
                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    .await?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line).await? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" || line == ".\n" {
                        break;
                    }
                    data.push_str(line.strip_prefix('.').unwrap_or(&line));
                }
                if let Ok(mut messages) = keep.lock() {
                    messages.push(ReceivedMail {
                        from: from.clone(),
                        to: to.clone(),
                        data,
                    });
                }
                b"250 OK queued\r\n"
            }
            "RSET" => {
                from.clear();
                to.clear();
                b"250 OK\r\n"
            }
            "NOOP" => b"250 OK\r\n",
            "QUIT" => {
                write.write_all(b"221 Bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 Command not implemented\r\n",
        };
        write.write_all(answer).await?;
    }
}

/// `MAIL FROM:<a@b>` -> `a@b`.
fn address(command: &str) -> String {
    match (command.find('<'), command.find('>')) {
        (Some(start), Some(end)) if end > start => command[start + 1..end].to_owned(),
        _ => String::new(),
    }
}
