//! The stdio transport around tower-lsp-server. The library's reader ends the whole stream at the
//! first frame it cannot decode (tokio-util's `FramedRead` stops after a decoder error), so one
//! bad frame would end the server. Here a reader task frames stdin itself ([`frames`]), answers
//! what is not a routable message ([`check`]) and passes the rest, re-framed, to the library
//! through an in-memory pipe; a writer task is the only writer of stdout, taking whole frames
//! from the library's output and from the reader's answers, so they never interleave.

mod ahead;
mod check;
#[cfg(test)]
mod check_tests;
mod frames;
mod json_text;
mod outline;

pub use ahead::claim as claim_opened_text;

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, DuplexStream};
use tokio::sync::mpsc;

use check::Verdict;
use frames::{Frame, FrameReader};

/// The in-memory pipes' buffer: a write waits while this much is unread.
const PIPE_BYTES: usize = 64 * 1024;

/// How long the writer is given to send what the library wrote before it returned.
const FLUSH_WAIT: Duration = Duration::from_secs(5);

/// The library's ends of the pipes, and the task that writes stdout.
pub struct Transport {
    /// What the library reads: the client's valid messages.
    pub input: DuplexStream,
    /// Where the library writes its messages.
    pub output: DuplexStream,
    /// The writer of stdout, to wait for at the end.
    pub writer: Writer,
}

/// The task that writes stdout.
pub struct Writer(tokio::task::JoinHandle<()>);

impl Transport {
    /// Starts the reader and writer tasks on `stdin` and `stdout`. Call inside the runtime.
    pub fn start<I, O>(stdin: I, stdout: O) -> Transport
    where
        I: AsyncRead + Unpin + Send + 'static,
        O: AsyncWrite + Unpin + Send + 'static,
    {
        let (input, to_library) = tokio::io::duplex(PIPE_BYTES);
        let (output, from_library) = tokio::io::duplex(PIPE_BYTES);
        let (answers, answered) = mpsc::unbounded_channel();
        tokio::spawn(read_client(stdin, to_library, answers));
        let writer = Writer(tokio::spawn(write_client(from_library, answered, stdout)));
        Transport {
            input,
            output,
            writer,
        }
    }
}

impl Writer {
    /// Waits (a bounded time) until everything the library wrote is on stdout; call after the
    /// library returned, which closes its output.
    pub async fn flush(self) {
        let _ = tokio::time::timeout(FLUSH_WAIT, self.0).await;
    }
}

/// Frames the client's bytes, passes routable messages to the library and sends the answers to
/// the others to the writer. Ends at the end of stdin or when the library stops reading.
async fn read_client<I: AsyncRead + Unpin>(
    mut stdin: I,
    mut library: DuplexStream,
    answers: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut reader = FrameReader::default();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let read = match stdin.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        reader.push(&chunk[..read]);
        while let Some(frame) = reader.next_frame() {
            if !deliver(frame, &mut library, &answers).await {
                return;
            }
        }
    }
}

/// Acts on one frame; `false` when the library no longer reads.
async fn deliver(
    frame: Frame,
    library: &mut DuplexStream,
    answers: &mpsc::UnboundedSender<Vec<u8>>,
) -> bool {
    // A large didOpen is read here once, and what is checked and passed on is the message with
    // its text taken over.
    let frame = match frame {
        Frame::Body(body) => Frame::Body(ahead::take_over(&body).unwrap_or(body)),
        broken => broken,
    };
    match check::check(frame) {
        Verdict::Pass(body) => write_frame(library, &body).await.is_ok(),
        Verdict::Answer(answer) => {
            eprintln!("admission-ls: answered a malformed message: {answer}");
            let _ = answers.send(answer.to_string().into_bytes());
            true
        }
        Verdict::Drop(reason) => {
            eprintln!("admission-ls: ignored {reason}");
            true
        }
    }
}

/// Writes the library's frames and the reader's answers to stdout, one whole frame at a time,
/// until the library's output ends.
async fn write_client<O: AsyncWrite + Unpin>(
    mut library: DuplexStream,
    mut answers: mpsc::UnboundedReceiver<Vec<u8>>,
    mut stdout: O,
) {
    let mut reader = FrameReader::default();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        tokio::select! {
            read = library.read(&mut chunk) => {
                let Ok(read @ 1..) = read else { break };
                reader.push(&chunk[..read]);
                while let Some(frame) = reader.next_frame() {
                    if let Frame::Body(body) = frame
                        && write_frame(&mut stdout, &body).await.is_err()
                    {
                        return;
                    }
                }
            }
            Some(answer) = answers.recv() => {
                if write_frame(&mut stdout, &answer).await.is_err() {
                    return;
                }
            }
        }
    }
    while let Ok(answer) = answers.try_recv() {
        let _ = write_frame(&mut stdout, &answer).await;
    }
}

async fn write_frame<W: AsyncWrite + Unpin>(to: &mut W, body: &[u8]) -> std::io::Result<()> {
    let header = format!("Content-Length: {}\r\n\r\n", body.len());
    to.write_all(header.as_bytes()).await?;
    to.write_all(body).await?;
    to.flush().await
}
