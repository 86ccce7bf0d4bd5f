//! A small real SMTP server for the tests: accepts every message and keeps it (no TLS, no auth).

use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Clone, Default)]
pub struct Sink {
    pub messages: Arc<Mutex<Vec<String>>>,
}

impl Sink {
    /// Serves on `listener` until the test ends.
    pub fn serve(listener: TcpListener) -> Sink {
        let sink = Sink::default();
        let out = sink.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let sink = sink.clone();
                tokio::spawn(async move {
                    let _ = sink.session(socket).await;
                });
            }
        });
        out
    }

    async fn session(&self, socket: tokio::net::TcpStream) -> std::io::Result<()> {
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 sink ESMTP\r\n").await?;
        while let Some(line) = lines.next_line().await? {
            let verb = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
            match verb.as_str() {
                "EHLO" | "HELO" => write.write_all(b"250-sink\r\n250 8BITMIME\r\n").await?,
                "DATA" => {
                    write.write_all(b"354 end with .\r\n").await?;
                    let mut message = String::new();
                    while let Some(l) = lines.next_line().await? {
                        if l == "." {
                            break;
                        }
                        message.push_str(&l);
                        message.push('\n');
                    }
                    self.messages.lock().unwrap().push(message);
                    write.write_all(b"250 queued\r\n").await?;
                }
                "QUIT" => {
                    write.write_all(b"221 bye\r\n").await?;
                    return Ok(());
                }
                _ => write.write_all(b"250 ok\r\n").await?,
            }
        }
        Ok(())
    }

    pub fn count(&self) -> usize {
        self.messages.lock().unwrap().len()
    }
}
