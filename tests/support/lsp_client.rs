//! A small LSP client over a child process's stdio with Content-Length framing, for the end-to-end
//! tests and the benchmarks. Every wait has a timeout so that a broken server fails instead of hanging.

// Each user (a test file, a bench) needs a different part of this client.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any single wait lasts before the client gives up.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A running server and the messages it sent that nobody has looked at yet.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    /// Notifications received while waiting for something else, oldest first.
    pending: Vec<Value>,
    next_id: i64,
    stderr: Arc<Mutex<String>>,
    /// The result to send back for a request from the server, by method (others get `null`).
    answers: Vec<(String, Value)>,
    /// Every request the server sent, oldest first.
    pub server_requests: Vec<Value>,
}

impl Client {
    /// Starts `binary serve --stdio`.
    pub fn spawn(binary: &str) -> Client {
        Client::spawn_with_env(binary, &[])
    }

    /// Starts `binary serve --stdio` with extra environment variables (the debug fault switch).
    pub fn spawn_with_env(binary: &str, env: &[(&str, &str)]) -> Client {
        let mut child = Command::new(binary)
            .args(["serve", "--stdio"])
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let (sender, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            let mut stderr = stderr;
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buffer) {
                let text = String::from_utf8_lossy(&buffer[..n]).into_owned();
                sink.lock().map(|mut s| s.push_str(&text)).ok();
            }
        });
        Client {
            child,
            stdin,
            incoming,
            pending: Vec::new(),
            next_id: 1,
            stderr: log,
            answers: Vec::new(),
            server_requests: Vec::new(),
        }
    }

    /// The process id, to read its memory use.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Writes bytes as they are, framing included (malformed frames, for the hostile tests).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let result = self
            .stdin
            .write_all(bytes)
            .and_then(|()| self.stdin.flush());
        result.unwrap_or_else(|e| panic!("write to server: {e}; stderr:\n{}", self.stderr()));
    }

    /// Writes one framed message.
    pub fn send(&mut self, message: &Value) {
        let body = serde_json::to_vec(message).expect("serialise");
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        let result = self
            .stdin
            .write_all(header.as_bytes())
            .and_then(|()| self.stdin.write_all(&body))
            .and_then(|()| self.stdin.flush());
        result.unwrap_or_else(|e| panic!("write to server: {e}; stderr:\n{}", self.stderr()));
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response; returns the whole response object.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// Sends a request without waiting; returns its id, for [`Client::response`].
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Waits for the response to request `id`; returns the whole response object.
    pub fn response(&mut self, id: i64) -> Value {
        self.wait_for(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    /// Waits for a `publishDiagnostics` for `uri` accepted by `accept`; returns its params.
    pub fn diagnostics_where(&mut self, uri: &str, accept: impl Fn(&Value) -> bool) -> Value {
        let message = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && accept(&m["params"])
        });
        message["params"].clone()
    }

    /// Waits for the diagnostics of `uri` at `version`.
    pub fn diagnostics_at(&mut self, uri: &str, version: i64) -> Value {
        self.diagnostics_where(uri, |p| p["version"] == version)
    }

    /// Returns the first message, pending or new, accepted by `accept`; other messages stay pending.
    pub fn wait_for(&mut self, accept: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.pending.iter().position(&accept) {
            return self.pending.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let Some(message) = self.next_message(deadline) else {
                continue; // a request from the server, answered
            };
            if accept(&message) {
                return message;
            }
            self.pending.push(message);
        }
    }

    /// Waits for the server's first request for `method` (answered as [`Client::answer`] set).
    pub fn wait_for_server_request(&mut self, method: &str) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(request) = self.server_requests.iter().find(|r| r["method"] == method) {
                return request.clone();
            }
            if let Some(message) = self.next_message(deadline) {
                self.pending.push(message);
            }
        }
    }

    /// The next message from the server; a request of the server's (e.g. workspace/configuration)
    /// is answered with what the test set for its method, else null, recorded, and gives `None`.
    fn next_message(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = match self.incoming.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("timed out; stderr:\n{}", self.stderr()),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("server closed stdout; stderr:\n{}", self.stderr())
            }
        };
        if message.get("id").is_none() || message.get("method").is_none() {
            return Some(message);
        }
        self.answer_request(message);
        None
    }

    /// Answers a request of the server with what the test set for its method (else null) and
    /// records it.
    fn answer_request(&mut self, message: Value) {
        let id = message["id"].clone();
        let result = self
            .answers
            .iter()
            .find(|(method, _)| message["method"] == method.as_str())
            .map_or(Value::Null, |(_, result)| result.clone());
        self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
        self.server_requests.push(message);
    }

    /// Drops every pending message.
    pub fn clear_pending(&mut self) {
        while self.incoming.try_recv().is_ok() {}
        self.pending.clear();
    }

    /// Sends `initialize` (with the given capabilities and options) and `initialized`.
    pub fn initialize(&mut self, capabilities: Value, root_uri: Value, options: Value) -> Value {
        let params = json!({"processId": null, "rootUri": root_uri, "capabilities": capabilities,
            "initializationOptions": options});
        let response = self.request("initialize", params);
        self.notify("initialized", json!({}));
        response
    }

    /// Sends `shutdown` and `exit` and waits for the process to end.
    pub fn shutdown_and_exit(mut self) -> ExitStatus {
        let response = self.request("shutdown", Value::Null);
        assert_eq!(response["result"], Value::Null, "{response}");
        self.notify("exit", Value::Null);
        self.wait_exit()
    }

    /// Waits for the process to end, killing it after the timeout.
    pub fn wait_exit(mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("server did not exit; stderr:\n{}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Reads one framed message; `None` at the end of the stream or on a broken frame.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0u8; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A `file://` URI for an absolute path.
pub fn file_uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

impl Client {
    /// Answers every later request of the server for `method` with `result`.
    pub fn answer(&mut self, method: &str, result: Value) {
        self.answers.push((method.to_owned(), result));
    }

    /// The next message (pending ones first), or `None` when none comes within `wait`; requests
    /// of the server are answered and skipped.
    pub fn next_within(&mut self, wait: Duration) -> Option<Value> {
        if !self.pending.is_empty() {
            return Some(self.pending.remove(0));
        }
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.incoming.recv_timeout(left).ok()?;
            if message.get("id").is_some() && message.get("method").is_some() {
                self.answer_request(message);
                continue;
            }
            return Some(message);
        }
    }

    /// Removes and returns the oldest pending message accepted by `accept`, without waiting.
    pub fn take_pending(&mut self, accept: impl Fn(&Value) -> bool) -> Option<Value> {
        let i = self.pending.iter().position(accept)?;
        Some(self.pending.remove(i))
    }
}
