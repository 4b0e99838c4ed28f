//! `kivl lsp` driven as an editor drives it: JSON-RPC over the child's stdin and stdout.

mod common;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kivl"))
            .args(["lsp", "--local-size", "16", "--num-groups", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting kivl lsp");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = channel();
        std::thread::spawn(move || loop {
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    len = v.parse().unwrap();
                }
            }
            let mut body = vec![0; len];
            stdout.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        });
        Client { child, stdin, messages, next_id: 1 }
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id)["result"].clone()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The first message that satisfies `pred` (others are skipped), within 60 s.
    fn wait(&self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self.messages.recv_timeout(left).expect("no such message from kivl lsp");
            if pred(&m) {
                return m;
            }
        }
    }

    /// The next `window/logMessage` that starts with `prefix`.
    fn log(&self, prefix: &str) -> String {
        let m = self.wait(|m| {
            m["method"] == "window/logMessage" && m["params"]["message"].as_str().is_some_and(|t| t.starts_with(prefix))
        });
        m["params"]["message"].as_str().unwrap().to_string()
    }

    /// The next diagnostics published for the document.
    fn diagnostics(&self) -> Vec<Value> {
        let m = self.wait(|m| m["method"] == "textDocument/publishDiagnostics");
        m["params"]["diagnostics"].as_array().cloned().unwrap()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

const URI: &str = "file:///tmp/kivl-lsp-test/neighbour.kbpl";

fn racy(barrier: bool) -> String {
    format!(
        "var {{:group_shared}} A: [int]int;\nvar {{:group_shared}} B: [int]int;\nprocedure {{:kernel}} k()\n{{\n  A[local_id_x] := local_id_x;\n  {}\n  B[local_id_x] := A[(local_id_x + 1) mod group_size_x];\n}}\n",
        if barrier { "barrier;" } else { "" }
    )
}

#[test]
fn an_editor_session() {
    let mut c = Client::start();
    let init = c.request("initialize", json!({"capabilities": {}}));
    assert_eq!(init["capabilities"]["hoverProvider"], true);
    c.notify("initialized", json!({}));

    // A racy kernel: the write of line 5 and the read of line 7 (0-based 4 and 6), one as the
    // diagnostic's range, the other as related information.
    let doc = json!({"uri": URI, "languageId": "kbpl", "version": 1, "text": racy(false)});
    c.notify("textDocument/didOpen", json!({"textDocument": doc}));
    let diags = c.diagnostics();
    let race = diags.iter().find(|d| d["code"] == "race").unwrap_or_else(|| panic!("no race: {diags:?}"));
    let mut lines = vec![race["range"]["start"]["line"].as_u64().unwrap()];
    for r in race["relatedInformation"].as_array().into_iter().flatten() {
        lines.push(r["location"]["range"]["start"]["line"].as_u64().unwrap());
    }
    lines.sort();
    assert_eq!(lines, [4, 6], "{race}");

    // Fixed with a barrier: the verification result clears the diagnostics.
    let change = |c: &mut Client, version: i64, text: String| {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}),
        );
    };
    change(&mut c, 2, racy(true));
    assert_eq!(c.diagnostics(), Vec::<Value>::new());

    // A type error appears at once, before any verification.
    let broken = racy(true).replace("local_id_x;\n  barrier", "true;\n  barrier");
    let t = Instant::now();
    change(&mut c, 3, broken);
    let diags = c.diagnostics();
    let elapsed = t.elapsed();
    eprintln!("type error published {elapsed:?} after the change");
    assert!(diags.iter().any(|d| d["code"] == "type" && d["range"]["start"]["line"] == 4), "{diags:?}");
    assert!(elapsed < Duration::from_secs(2), "the type error took {elapsed:?}");
    // Under 100 ms of the server's own work (its CPU time: the machine may be loaded).
    let log = c.log("front end of version 3:");
    let cpu_ms: f64 = log.rsplit('(').next().and_then(|t| t.split(' ').next()).and_then(|t| t.parse().ok()).unwrap();
    assert!(cpu_ms < 100.0, "{log}");

    // Hover, definition and symbols on the current text.
    let pos = |line: u32, character: u32| json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}});
    let hover = c.request("textDocument/hover", pos(4, 3));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("A: [int]int") && text.contains("group-shared"), "{hover}");
    let def = c.request("textDocument/definition", pos(6, 19));
    assert_eq!(def["range"]["start"]["line"], 0, "{def}");
    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["A", "B", "k"]);

    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    let status = c.child.wait().unwrap();
    assert!(status.success());
}

/// Plain Boogie in the editor: an edit of one procedure verifies that procedure again, not the
/// others (the server's long-lived database); the failing assertion is reported and cleared.
#[test]
fn an_edit_re_verifies_one_procedure() {
    let mut c = Client::start();
    c.request("initialize", json!({"capabilities": {}}));
    c.notify("initialized", json!({}));
    let uri = "file:///tmp/kivl-lsp-test/three.bpl";
    let text = "procedure A(x: int) { assert x == x; }\nprocedure B(x: int) { assert x > 0; }\nprocedure C() { assert true; }\n";
    let doc = json!({"uri": uri, "languageId": "boogie", "version": 1, "text": text});
    c.notify("textDocument/didOpen", json!({"textDocument": doc}));
    let diags = c.diagnostics();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 1, "{diags:?}");
    assert_eq!(c.log("verification of version 1:"), "verification of version 1: 3 of 3 units verified again");
    let fixed = text.replace("x > 0", "x > 0 || x <= 0");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(c.diagnostics(), Vec::<Value>::new());
    assert_eq!(c.log("verification of version 2:"), "verification of version 2: 1 of 3 units verified again");
}
