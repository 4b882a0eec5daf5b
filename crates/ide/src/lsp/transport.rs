//! The server's stdio: messages are read by `lsp-server` on a thread of
//! their own, as its own transport does, but answers are written from the
//! JSON text they were serialized to ([`Reply`]), not from a
//! `serde_json::Value` tree. Building, writing and dropping that tree was
//! over 70% of a large answer (the document symbols of a 1000-bone script:
//! 948 KB of JSON).
//!
//! The handshake and the shutdown answer go through [`Connection`]'s
//! `Message`s; everything else through [`Out`]. One writer thread takes
//! both, one message at a time, in the order the main loop sent them (both
//! channels are rendezvous channels, and the main loop is the only sender).

use std::io::{self, BufRead, Write};
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, bounded, select};
use lsp_server::{Connection, Message, RequestId};

/// A request's answer as JSON text: what [`write_reply`] puts after
/// `"result":`, or an error.
#[derive(Debug)]
pub struct Reply {
    /// The request answered.
    pub id: RequestId,
    /// The result's JSON text, or an error's code and message.
    pub result: Result<String, (i32, String)>,
}

/// What the main loop sends to the writer.
pub enum Out {
    /// A message as `lsp-server` writes it (notifications).
    Message(Message),
    /// An answer already serialized.
    Reply(Reply),
}

/// The stdio transport's threads.
pub struct Threads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits for both threads (the reader ends after `exit` or at the end
    /// of input, the writer once every sender is gone).
    pub fn join(self) -> io::Result<()> {
        let reader = self.reader.join().map_err(|_| io::Error::other("the reader panicked"))?;
        let writer = self.writer.join().map_err(|_| io::Error::other("the writer panicked"))?;
        reader.and(writer)
    }
}

/// A connection over stdin/stdout, the sender of answers, and the threads.
pub fn stdio() -> io::Result<(Connection, Sender<Out>, Threads)> {
    let (in_tx, in_rx) = bounded::<Message>(0);
    let reader = thread::Builder::new().name("skelpad-lsp-reader".into()).spawn(move || {
        let stdin = io::stdin();
        read_messages(&mut stdin.lock(), &in_tx)
    })?;
    let (msg_tx, msg_rx) = bounded::<Message>(0);
    let (out_tx, out_rx) = bounded::<Out>(0);
    let writer = thread::Builder::new().name("skelpad-lsp-writer".into()).spawn(move || {
        let stdout = io::stdout();
        write_all(&mut stdout.lock(), &msg_rx, &out_rx)
    })?;
    Ok((Connection { sender: msg_tx, receiver: in_rx }, out_tx, Threads { reader, writer }))
}

/// Sends every message read from `input` until `exit` or the end.
fn read_messages(input: &mut impl BufRead, to: &Sender<Message>) -> io::Result<()> {
    while let Some(msg) = Message::read(input)? {
        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
        to.send(msg).map_err(io::Error::other)?;
        if exit {
            break;
        }
    }
    Ok(())
}

/// Writes what comes on either channel until both are closed.
fn write_all(w: &mut impl Write, msgs: &Receiver<Message>, outs: &Receiver<Out>) -> io::Result<()> {
    let (no_msgs, no_outs) = (crossbeam_channel::never(), crossbeam_channel::never());
    let (mut msgs_open, mut outs_open) = (true, true);
    while msgs_open || outs_open {
        let m = if msgs_open { msgs } else { &no_msgs };
        let o = if outs_open { outs } else { &no_outs };
        let out = select! {
            recv(m) -> got => match got {
                Ok(got) => Out::Message(got),
                Err(_) => {
                    msgs_open = false;
                    continue;
                }
            },
            recv(o) -> got => match got {
                Ok(got) => got,
                Err(_) => {
                    outs_open = false;
                    continue;
                }
            },
        };
        match out {
            Out::Message(m) => m.write(w)?,
            Out::Reply(r) => write_reply(w, &r)?,
        }
    }
    Ok(())
}

/// Writes `reply` as one JSON-RPC response with its `Content-Length`
/// header, and flushes.
pub fn write_reply(w: &mut impl Write, reply: &Reply) -> io::Result<()> {
    let id = serde_json::to_string(&reply.id)?;
    // A result is written after its head, not copied into one body.
    let (head, result) = match &reply.result {
        Ok(result) => (format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#), result.as_str()),
        Err((code, message)) => {
            let message = serde_json::to_string(message)?;
            let head = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{message}}}"#
            );
            (head, "")
        }
    };
    write!(w, "Content-Length: {}\r\n\r\n", head.len() + result.len() + 1)?;
    w.write_all(head.as_bytes())?;
    w.write_all(result.as_bytes())?;
    w.write_all(b"}")?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_server::{Notification, Request, Response};

    /// What `lsp-server` reads back from the bytes `write_reply` writes.
    fn read_back(reply: &Reply) -> Response {
        let mut bytes = Vec::new();
        write_reply(&mut bytes, reply).unwrap();
        match Message::read(&mut bytes.as_slice()).unwrap() {
            Some(Message::Response(r)) => r,
            other => panic!("not a response: {other:?}"),
        }
    }

    fn value(r: &Response) -> serde_json::Value {
        serde_json::to_value(r).unwrap()
    }

    /// Every kind of answer, written as text, reads back as the response
    /// the server gives in process, errors included.
    #[test]
    fn written_answers_read_back_as_the_servers_responses() {
        let text = include_str!("../../../../examples/walk_cycle.skel2d");
        let mut server = crate::lsp::test_server();
        let open = serde_json::json!({ "textDocument": {
            "uri": "file:///w.skel2d", "languageId": "skel2d", "version": 1, "text": text } });
        server.notification(Notification::new("textDocument/didOpen".into(), open));
        let doc = serde_json::json!({ "uri": "file:///w.skel2d" });
        let at = serde_json::json!({ "line": 3, "character": 2 });
        let asks = [
            ("textDocument/documentSymbol", serde_json::json!({ "textDocument": doc })),
            ("textDocument/semanticTokens/full", serde_json::json!({ "textDocument": doc })),
            ("textDocument/hover", serde_json::json!({ "textDocument": doc, "position": at })),
            ("textDocument/unknownThing", serde_json::json!({})),
            (
                "textDocument/hover",
                serde_json::json!({ "textDocument": { "uri": "file:///x" },
                "position": at }),
            ),
        ];
        for (i, (method, params)) in asks.into_iter().enumerate() {
            let req = || Request::new(RequestId::from(i as i32), method.into(), params.clone());
            let written = read_back(&server.answer(req()));
            // Semantic tokens carry a new result id each time: compare the data.
            let (mut a, mut b) = (value(&written), value(&server.request(req())));
            for v in [&mut a, &mut b] {
                if let Some(r) = v.get_mut("result").and_then(|r| r.as_object_mut()) {
                    r.remove("resultId");
                }
            }
            assert_eq!(a, b, "{method}");
        }
    }
}
