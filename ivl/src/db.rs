//! The incremental front end: a salsa 0.28 database in which source texts are inputs and
//! splitting, parsing, the item index and type checking are tracked queries at the granularity
//! of one top-level declaration — so that editing one procedure body re-parses and re-checks
//! only that procedure (and the cheap whole-file queries that gather results).
//!
//! The queries, each reading only what it needs:
//!
//! - `decl_chunks(file)` — [`crate::split::split_decls`] on the text: one [`DeclChunk`] per
//!   declaration, with its `text` and `offset` as separate tracked fields;
//! - `parse_decl_query(chunk)` — reads only the chunk's text; spans relative to the chunk;
//! - `file_program(file)` — all parsed declarations, spans shifted to absolute offsets (for the
//!   later stages; checking alone never builds it);
//! - `env_and_diagnostics(file)` — [`crate::check::build_env`] on the declarations' signatures
//!   (bodies left out, spans shifted to absolute offsets);
//! - `item_index(file)` — the [`GlobalEnv`] alone: a firewall. It holds no spans and no bodies,
//!   so after a body edit it is equal to the previous one and salsa backdates it;
//! - `check_decl_query(chunk)` — [`crate::check::check_decl`] on the parsed chunk against
//!   `item_index`; spans relative to the chunk, so it re-runs only when its own text changes or
//!   a signature somewhere changes;
//! - `program_rules(file)` — [`crate::check::check_program_rules_at`] (rules spanning several
//!   declarations) on `item_index` and the parsed declarations with their offsets; re-runs on
//!   every edit (one linear walk);
//! - `file_diagnostics(file)` — everything above, shifted to absolute spans, in source order.
//!
//! A chunk's identity is (keyword, name, occurrence of that pair in the file); its text and its
//! byte offset are separate tracked fields, so moving a declaration (an edit above it) changes
//! only its offset and nothing that depends on its text re-runs. Diagnostics are computed
//! relative to their chunk and shifted to absolute offsets only when gathered.

use crate::ast::{Decl, DeclKind, ImplementationDecl, ProcedureDecl, Program};
use crate::diag::Diagnostic;
use crate::resolve::GlobalEnv;
use crate::visit::shift_spans;
use salsa::Setter as _;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The functions of the other front-end modules that the queries call.
mod backend {
    pub use crate::check::{build_env, check_decl, check_program_rules_at};
    pub use crate::parser::parse_decls;
    pub use crate::split::split_decls;
}

/// A source file: its path (for messages) and its text. Change the text with
/// `file.set_text(&mut db).to(new_text)`.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: String,
}

/// One top-level declaration of a file.
#[salsa::tracked(debug)]
pub struct DeclChunk<'db> {
    #[returns(copy)]
    pub file: SourceFile,
    /// `"procedure"`, `"axiom"`, … as found by the splitter.
    #[returns(copy)]
    pub keyword: &'static str,
    #[returns(ref)]
    pub name: Option<String>,
    /// How many earlier chunks of the file have the same keyword and name.
    #[returns(copy)]
    pub occurrence: u32,
    /// The declaration's text, from its keyword (or leading attributes) to its end.
    #[tracked]
    #[returns(ref)]
    pub text: String,
    /// Byte offset of `text` in the file.
    #[tracked]
    #[returns(copy)]
    pub offset: u32,
}

/// Cuts a file into its top-level declarations.
#[salsa::tracked(returns(ref))]
pub fn decl_chunks(db: &dyn salsa::Database, file: SourceFile) -> Vec<DeclChunk<'_>> {
    let text = file.text(db);
    let mut seen: HashMap<(&'static str, Option<String>), u32> = HashMap::new();
    backend::split_decls(text)
        .into_iter()
        .map(|c| {
            let occurrence = seen.entry((c.keyword, c.name.clone())).or_insert(0);
            let chunk_text = text[c.start as usize..c.end as usize].to_string();
            let chunk = DeclChunk::new(db, file, c.keyword, c.name, *occurrence, chunk_text, c.start);
            *occurrence += 1;
            chunk
        })
        .collect()
}

/// The result of parsing one chunk; spans are relative to the chunk.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParsedDecl {
    /// Usually one declaration; `type A, B;` gives one per type; none after a syntax error.
    pub decls: Arc<[Decl]>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses one chunk. Reads only the chunk's text, not its offset.
#[salsa::tracked(returns(ref))]
pub fn parse_decl_query<'db>(db: &'db dyn salsa::Database, chunk: DeclChunk<'db>) -> ParsedDecl {
    let (decls, diagnostics) = backend::parse_decls(chunk.text(db));
    ParsedDecl { decls: decls.into(), diagnostics }
}

/// The declarations of a file as parsed, each with the offset of its chunk.
fn parsed_decls(db: &dyn salsa::Database, file: SourceFile) -> impl Iterator<Item = (&Decl, u32)> {
    decl_chunks(db, file).iter().flat_map(move |c| {
        let offset = c.offset(db);
        parse_decl_query(db, *c).decls.iter().map(move |d| (d, offset))
    })
}

/// The file as a program with absolute spans (declarations that did not parse are left out).
#[salsa::tracked(returns(ref))]
pub fn file_program(db: &dyn salsa::Database, file: SourceFile) -> Arc<Program> {
    let decls = parsed_decls(db, file)
        .map(|(d, offset)| {
            let mut d = d.clone();
            shift_spans(&mut d, offset);
            d
        })
        .collect();
    Arc::new(Program { decls })
}

/// The item index and the diagnostics of building it (absolute spans). The index needs only
/// signatures, so procedure and implementation bodies are left out of the copy whose spans are
/// shifted (a GPUVerify kernel body is megabytes of syntax tree).
#[salsa::tracked(returns(ref))]
fn env_and_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> (GlobalEnv, Vec<Diagnostic>) {
    let signatures: Vec<Decl> = parsed_decls(db, file)
        .map(|(d, offset)| {
            let mut d = signature_of(d);
            shift_spans(&mut d, offset);
            d
        })
        .collect();
    backend::build_env(&signatures)
}

/// A declaration without the statements and locals of its body (what [`backend::build_env`]
/// reads of procedures and implementations is their signature).
fn signature_of(d: &Decl) -> Decl {
    let no_body = |b: &crate::ast::Body| crate::ast::Body { locals: Vec::new(), stmts: Vec::new(), span: b.span };
    let kind = match &d.kind {
        DeclKind::Procedure(p) => DeclKind::Procedure(ProcedureDecl {
            attrs: p.attrs.clone(),
            name: p.name.clone(),
            type_params: p.type_params.clone(),
            ins: p.ins.clone(),
            outs: p.outs.clone(),
            contracts: p.contracts.clone(),
            modifies: p.modifies.clone(),
            body: p.body.as_ref().map(no_body),
        }),
        DeclKind::Implementation(i) => DeclKind::Implementation(ImplementationDecl {
            attrs: i.attrs.clone(),
            name: i.name.clone(),
            type_params: i.type_params.clone(),
            ins: i.ins.clone(),
            outs: i.outs.clone(),
            body: no_body(&i.body),
        }),
        k => k.clone(),
    };
    Decl { kind, span: d.span }
}

/// The item index of a file: every global name and its signature. A firewall: it re-runs when
/// any declaration changes, but when its value is unchanged (the usual case after editing a
/// body) salsa backdates it and the checks that read it are not re-run.
#[salsa::tracked(returns(ref))]
pub fn item_index(db: &dyn salsa::Database, file: SourceFile) -> GlobalEnv {
    env_and_diagnostics(db, file).0.clone()
}

/// Type-checks one declaration against the item index; spans relative to the chunk.
#[salsa::tracked(returns(ref))]
pub fn check_decl_query<'db>(db: &'db dyn salsa::Database, chunk: DeclChunk<'db>) -> Vec<Diagnostic> {
    let decls = &parse_decl_query(db, chunk).decls;
    if decls.is_empty() {
        return Vec::new();
    }
    let env = item_index(db, chunk.file(db));
    decls.iter().flat_map(|d| backend::check_decl(env, d)).collect()
}

/// The rules of the checker that relate several declarations (an implementation against its
/// procedure's signature, barrier placement, `modifies` clauses), on the whole program.
#[salsa::tracked(returns(ref))]
pub fn program_rules(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    let decls: Vec<(&Decl, u32)> = parsed_decls(db, file).collect();
    backend::check_program_rules_at(item_index(db, file), &decls)
}

/// Every syntax and type diagnostic of a file, with absolute spans, in source order.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for c in decl_chunks(db, file) {
        let offset = c.offset(db);
        out.extend(parse_decl_query(db, *c).diagnostics.iter().map(|d| d.clone().shifted(offset)));
        out.extend(check_decl_query(db, *c).iter().map(|d| d.clone().shifted(offset)));
    }
    out.extend(env_and_diagnostics(db, file).1.iter().cloned());
    out.extend(program_rules(db, file).iter().cloned());
    out.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    out.dedup();
    out
}

/// The salsa database of the front end.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    log: Option<Arc<Mutex<Vec<String>>>>,
    /// Holds a large file: free the memoized trees on another thread when dropped.
    large: Arc<AtomicBool>,
}

/// Files at least this long make dropping the database slow (tens of milliseconds of freeing
/// syntax trees); such a database is freed on a background thread, which a command-line run
/// that exits right after does not wait for.
const LARGE_FILE_BYTES: usize = 1 << 20;

impl Default for Database {
    fn default() -> Self {
        Database { storage: salsa::Storage::new(None), log: None, large: Arc::default() }
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if self.large.load(Ordering::Relaxed) {
            let storage = std::mem::replace(&mut self.storage, salsa::Storage::new(None));
            if let Err(e) = std::thread::Builder::new().spawn(move || drop(storage)) {
                drop(e);
            }
        }
    }
}

#[salsa::db]
impl salsa::Database for Database {}

impl Database {
    pub fn new() -> Database {
        Database::default()
    }

    /// A database that records every query execution (salsa's `WillExecute` event) as
    /// `query_name(Id(..))`; see [`Database::take_executions`].
    pub fn with_execution_log() -> Database {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                sink.lock().unwrap().push(format!("{database_key:?}"));
            }
        })));
        Database { storage, log: Some(log), large: Arc::default() }
    }

    /// The query executions recorded since the last call (empty without a log).
    pub fn take_executions(&self) -> Vec<String> {
        self.log.as_ref().map(|l| std::mem::take(&mut *l.lock().unwrap())).unwrap_or_default()
    }

    /// Adds a file.
    pub fn add_file(&self, path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        if text.len() >= LARGE_FILE_BYTES {
            self.large.store(true, Ordering::Relaxed);
        }
        SourceFile::new(self, path.into(), text)
    }

    /// Replaces a file's text (a new revision); returns the old text.
    pub fn set_text(&mut self, file: SourceFile, text: impl Into<String>) -> String {
        file.set_text(self).to(text.into())
    }

    /// The newest text of a file kept across edits: `file` with `text` (a new revision only
    /// when the text changed), or a new file when there is none yet.
    pub fn put_text(&mut self, file: Option<SourceFile>, path: &str, text: String) -> SourceFile {
        match file {
            Some(file) => {
                if file.text(self) != &text {
                    self.set_text(file, text);
                }
                file
            }
            None => self.add_file(path, text),
        }
    }
}
