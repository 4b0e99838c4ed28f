//! `kivl watch`: started on a file, the file edited and fixed, each change seen on stdout.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Watcher {
    child: Child,
    lines: Receiver<String>,
}

impl Watcher {
    fn start(file: &std::path::Path) -> Watcher {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kivl"))
            .args(["watch", "--poll-ms", "50", "--jobs", "1"])
            .arg(file)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting kivl watch");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Watcher { child, lines }
    }

    /// The next `n` lines (within 60 s).
    fn next(&self, n: usize) -> Vec<String> {
        (0..n).map(|_| self.lines.recv_timeout(Duration::from_secs(60)).expect("a line from kivl watch")).collect()
    }

    /// Nothing more within `d`.
    fn quiet(&self, d: Duration) -> Option<String> {
        self.lines.recv_timeout(d).ok()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const CORRECT: &str = "procedure P(x: int) { assert x == x; }\nprocedure Q(x: int) { assert x >= 0 || x < 0; }\n";

#[test]
fn watch_prints_what_changed() {
    let dir = std::env::temp_dir().join(format!("kivl-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("w.bpl");
    std::fs::write(&file, CORRECT).unwrap();
    let name = file.display().to_string();
    let w = Watcher::start(&file);
    assert_eq!(w.next(1), [format!("{name}: verified")]);

    // A failing assertion on line 2: the verdict changes, the error is new.
    std::fs::write(&file, CORRECT.replace("x >= 0 || x < 0", "x >= 0")).unwrap();
    let lines = w.next(2);
    assert_eq!(lines[0], format!("{name}: verified -> errors"));
    assert!(lines[1].starts_with(&format!("+ {name}:2:")) && lines[1].contains("assertion"), "{lines:?}");

    // A save that changes nothing verified (a comment) prints nothing.
    std::fs::write(&file, format!("{}// note\n", CORRECT.replace("x >= 0 || x < 0", "x >= 0"))).unwrap();
    assert_eq!(w.quiet(Duration::from_millis(1500)), None);

    // Fixed: the error is cleared.
    std::fs::write(&file, CORRECT).unwrap();
    let lines = w.next(2);
    assert_eq!(lines[0], format!("{name}: errors -> verified"));
    assert!(lines[1].starts_with(&format!("- {name}:2:")), "{lines:?}");
    drop(w);
    let _ = std::fs::remove_dir_all(&dir);
}
