//! `kivl lsp`: a Language Server Protocol server over stdio (the `lsp-server` transport of
//! rust-analyzer, `lsp-types` messages).
//!
//! What an editor gets:
//! - diagnostics on open and on every change: syntax and type errors at once (the front end runs
//!   on the message loop on a database of its own, re-checking only the declarations a change
//!   touched: milliseconds), verification results when they are ready (a
//!   worker thread verifies the newest text; both accesses of a race are related information);
//! - a verification whose text has changed again is outdated: it stops at the next unit (see
//!   below) and its result is dropped, and the newest text is verified next (one verification
//!   at a time, so typing never queues work);
//! - the worker verifies through one long-lived database (`crate::incremental`): an edit
//!   re-verifies only the implementations whose slice changed, and the units a cancelled
//!   verification finished are kept;
//! - hover (a declaration's type; for shared maps their memory space), go to definition, and the
//!   document's symbols, read from the parse of the current text.
//!
//! Positions are LSP's: zero-based lines and UTF-16 columns.

use crate::incremental::Session;
use crate::pipeline::VerifyConfig;
use ivl::ast::*;
use ivl::diag::SourceFile;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol, DocumentSymbolResponse, Hover, HoverContents,
    Location, MarkupContent, MarkupKind, Position, PublishDiagnosticsParams, Range, ServerCapabilities, SymbolKind,
    TextDocumentSyncCapability, TextDocumentSyncKind, Url,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The newest text of each open document, with a generation that every change increments.
#[derive(Default)]
struct Documents {
    texts: HashMap<Url, (u64, String)>,
    generation: u64,
    /// Whether the last diagnostics published for a document were front-end errors.
    front_errors: HashMap<Url, bool>,
}

/// Runs the server until the client says `exit`. Returns the process exit status.
pub fn run(cfg: VerifyConfig) -> i32 {
    let (connection, io) = Connection::stdio();
    let caps = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
        ..Default::default()
    };
    let caps = serde_json::to_value(caps).expect("capabilities are plain data");
    if connection.initialize(caps).is_err() {
        return 1;
    }
    let docs = Arc::new(Mutex::new(Documents::default()));
    let (work, pending) = std::sync::mpsc::channel::<Url>();
    let mut front = FrontEnd { opts: cfg.frontend.clone(), db: ivl::db::Database::new(), files: HashMap::new() };
    let verifier = {
        let (docs, sender) = (Arc::clone(&docs), connection.sender.clone());
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || verify_loop(&cfg, &docs, &pending, &sender))
            .expect("starting the verification thread")
    };
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection.handle_shutdown(&req).unwrap_or(true) {
                    break;
                }
                let texts = docs.lock().expect("documents").texts.clone();
                let _ = connection.sender.send(Message::Response(answer(&req, &texts)));
            }
            Message::Notification(n) => {
                if let Some((uri, text)) = changed_text(&n) {
                    let started = (std::time::Instant::now(), crate::timing::thread_cpu_time());
                    let errors = front.diagnostics(&uri, &text);
                    let (generation, had_errors) = {
                        let mut d = docs.lock().expect("documents");
                        d.generation += 1;
                        let g = d.generation;
                        d.texts.insert(uri.clone(), (g, text.clone()));
                        (g, d.front_errors.insert(uri.clone(), !errors.is_empty()).unwrap_or(false))
                    };
                    // Syntax and type errors at once; a clean text keeps the last verification
                    // results until the new ones are ready (unless they were front-end errors).
                    if !errors.is_empty() || had_errors {
                        publish(&connection.sender, &uri, &text, &errors, Some(generation));
                    }
                    let (wall, cpu) = (started.0.elapsed(), crate::timing::thread_cpu_time().saturating_sub(started.1));
                    let line = format!(
                        "front end of version {generation}: {} diagnostics in {:.1} ms ({:.1} ms of CPU time)",
                        errors.len(),
                        wall.as_secs_f64() * 1e3,
                        cpu.as_secs_f64() * 1e3
                    );
                    log(&connection.sender, line);
                    if errors.is_empty() {
                        let _ = work.send(uri);
                    }
                }
            }
            Message::Response(_) => {}
        }
    }
    drop(work);
    let _ = verifier.join();
    // The writer thread ends when the last sender is gone.
    drop(connection);
    let _ = io.join();
    0
}

/// The text of a `didOpen` or (full-sync) `didChange` notification.
fn changed_text(n: &Notification) -> Option<(Url, String)> {
    if n.method == lsp_types::notification::DidOpenTextDocument::METHOD {
        let p: lsp_types::DidOpenTextDocumentParams = serde_json::from_value(n.params.clone()).ok()?;
        return Some((p.text_document.uri, p.text_document.text));
    }
    if n.method == lsp_types::notification::DidChangeTextDocument::METHOD {
        let p: lsp_types::DidChangeTextDocumentParams = serde_json::from_value(n.params.clone()).ok()?;
        let text = p.content_changes.into_iter().last()?.text;
        return Some((p.text_document.uri, text));
    }
    None
}

/// Verifies the newest text of each document it is told about; a result whose text changed
/// meanwhile is dropped (the change queued another verification).
fn verify_loop(
    cfg: &VerifyConfig,
    docs: &Mutex<Documents>,
    pending: &std::sync::mpsc::Receiver<Url>,
    sender: &crossbeam_channel::Sender<Message>,
) {
    let mut session = Session::new(cfg);
    while let Ok(uri) = pending.recv() {
        // Only the last of a burst of changes matters.
        let mut uris = vec![uri];
        uris.extend(pending.try_iter());
        uris.sort_by_key(|u| u.to_string());
        uris.dedup();
        for uri in uris {
            let Some((generation, text)) = docs.lock().expect("documents").texts.get(&uri).cloned() else { continue };
            let outdated = || docs.lock().expect("documents").texts.get(&uri).map(|(g, _)| *g) != Some(generation);
            // Outdated between two units: the units verified so far stay in the database.
            let Some(outcome) = session.verify(uri.path(), text.clone(), &outdated) else { continue };
            if !outdated() {
                publish(sender, &uri, &text, &outcome.report.errors, Some(generation));
                let (n, all) = (outcome.verified_units, outcome.units);
                log(sender, format!("verification of version {generation}: {n} of {all} units verified again"));
            }
        }
    }
}

/// The front end of the message loop: a database of its own that lives as long as the
/// server (the worker's is busy verifying), so a change re-parses and re-checks only the
/// declarations it touched (`ivl::db`).
struct FrontEnd {
    opts: frontend::Options,
    db: ivl::db::Database,
    files: HashMap<Url, ivl::db::SourceFile>,
}

impl FrontEnd {
    /// Syntax and type errors of the text (an OpenCL/CUDA kernel is translated again).
    fn diagnostics(&mut self, uri: &Url, text: &str) -> Vec<ivl::diag::Diagnostic> {
        if frontend::Language::of(std::path::Path::new(uri.path())).is_some() {
            let source = SourceFile::new(uri.path().to_string(), text.to_string());
            return crate::front::checked_program(&source, &self.opts).err().unwrap_or_default();
        }
        let file = self.db.put_text(self.files.get(uri).copied(), uri.path(), text.to_string());
        self.files.insert(uri.clone(), file);
        crate::front::db_diagnostics(ivl::db::file_diagnostics(&self.db, file)).err().unwrap_or_default()
    }
}

/// A `window/logMessage` (info): what the server did and how long it took.
fn log(sender: &crossbeam_channel::Sender<Message>, message: String) {
    let params = lsp_types::LogMessageParams { typ: lsp_types::MessageType::INFO, message };
    let method = lsp_types::notification::LogMessage::METHOD.to_string();
    let _ = sender.send(Message::Notification(Notification::new(method, params)));
}

/// `textDocument/publishDiagnostics` for `diags` of `text`.
fn publish(
    sender: &crossbeam_channel::Sender<Message>,
    uri: &Url,
    text: &str,
    diags: &[ivl::diag::Diagnostic],
    version: Option<u64>,
) {
    let diagnostics = diags
        .iter()
        .map(|d| {
            let related: Vec<DiagnosticRelatedInformation> = d
                .related
                .iter()
                .map(|l| DiagnosticRelatedInformation {
                    location: Location { uri: uri.clone(), range: range(text, l.span) },
                    message: if l.message.is_empty() { "related location".into() } else { l.message.clone() },
                })
                .collect();
            let mut message = d.message.clone();
            for note in &d.notes {
                message.push('\n');
                message.push_str(note);
            }
            lsp_types::Diagnostic {
                range: range(text, d.primary.span),
                severity: Some(if d.kind == ivl::diag::ErrorKind::Timeout {
                    DiagnosticSeverity::WARNING
                } else {
                    DiagnosticSeverity::ERROR
                }),
                code: Some(lsp_types::NumberOrString::String(d.kind.as_str().into())),
                source: Some("kivl".into()),
                message,
                related_information: (!related.is_empty()).then_some(related),
                ..Default::default()
            }
        })
        .collect();
    let params = PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version: version.map(|v| v as i32) };
    let method = lsp_types::notification::PublishDiagnostics::METHOD.to_string();
    let _ = sender.send(Message::Notification(Notification::new(method, params)));
}

/// The LSP position of byte `offset` of `text`.
fn position(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() as u32;
    Position::new(line, text[line_start..offset].encode_utf16().count() as u32)
}

/// The byte offset of an LSP position (clamped to the text).
fn offset(text: &str, pos: Position) -> usize {
    let mut start = 0;
    for _ in 0..pos.line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut units = 0;
    for (i, c) in text[start..].char_indices() {
        if units >= pos.character as usize || c == '\n' {
            return start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

fn range(text: &str, span: Span) -> Range {
    Range::new(position(text, span.start as usize), position(text, span.end as usize))
}

/// The response to a request: hover, definition, document symbols; an error for the others.
fn answer(req: &Request, texts: &HashMap<Url, (u64, String)>) -> Response {
    use lsp_types::request::{DocumentSymbolRequest, GotoDefinition, HoverRequest};
    let at = |p: &lsp_types::TextDocumentPositionParams| {
        let (_, text) = texts.get(&p.text_document.uri)?;
        Some((p.text_document.uri.clone(), text.as_str(), offset(text, p.position)))
    };
    let result = match req.method.as_str() {
        HoverRequest::METHOD => serde_json::from_value::<lsp_types::HoverParams>(req.params.clone()).ok().map(|p| {
            let found = at(&p.text_document_position_params).and_then(|(_, text, o)| lookup(text, o));
            serde_json::to_value(found.map(|s| Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: s.hover }),
                range: None,
            }))
        }),
        GotoDefinition::METHOD => {
            serde_json::from_value::<lsp_types::GotoDefinitionParams>(req.params.clone()).ok().map(|p| {
                let found = at(&p.text_document_position_params).and_then(|(uri, text, o)| {
                    let s = lookup(text, o)?;
                    Some(Location { uri, range: range(text, s.span) })
                });
                serde_json::to_value(found.map(lsp_types::GotoDefinitionResponse::Scalar))
            })
        }
        DocumentSymbolRequest::METHOD => {
            serde_json::from_value::<lsp_types::DocumentSymbolParams>(req.params.clone()).ok().map(|p| {
                let symbols = texts.get(&p.text_document.uri).map(|(_, text)| symbols(text)).unwrap_or_default();
                serde_json::to_value(DocumentSymbolResponse::Nested(symbols))
            })
        }
        _ => {
            return Response::new_err(
                req.id.clone(),
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("kivl does not answer `{}`", req.method),
            )
        }
    };
    match result {
        Some(Ok(v)) => Response::new_ok(req.id.clone(), v),
        _ => Response::new_err(req.id.clone(), lsp_server::ErrorCode::InvalidParams as i32, "bad parameters".into()),
    }
}

/// A declaration found for the identifier under the cursor.
struct Symbol {
    span: Span,
    hover: String,
}

/// The identifier around byte `o` of `text`.
fn identifier_at(text: &str, o: usize) -> Option<(usize, usize)> {
    let is_id = |c: char| c.is_alphanumeric() || "_$.#'~^?\\".contains(c);
    let start = text[..o].char_indices().rev().take_while(|(_, c)| is_id(*c)).last().map_or(o, |(i, _)| i);
    let end = text[o..].char_indices().find(|(_, c)| !is_id(*c)).map_or(text.len(), |(i, _)| o + i);
    (start < end).then_some((start, end))
}

/// The declaration of the identifier at `o`: a parameter or local of the enclosing procedure,
/// else a top-level declaration.
fn lookup(text: &str, o: usize) -> Option<Symbol> {
    let (start, end) = identifier_at(text, o)?;
    let name = &text[start..end];
    let (program, _) = ivl::parser::parse_program(text);
    let typed = |t: &TypedIdent, what: &str| Symbol {
        span: t.name.span,
        hover: format!("```kbpl\n{what} {}: {}\n```", t.name.name, ivl::printer::print_type(&t.ty)),
    };
    let enclosing = program.decls.iter().find(|d| d.span.start as usize <= o && o <= d.span.end as usize);
    if let Some(d) = enclosing {
        let (ins, outs, body) = match &d.kind {
            DeclKind::Procedure(p) => (&p.ins, &p.outs, p.body.as_ref()),
            DeclKind::Implementation(i) => (&i.ins, &i.outs, Some(&i.body)),
            _ => (&Vec::new() as &Vec<TypedIdent>, &Vec::new() as &Vec<TypedIdent>, None),
        };
        let locals = body.into_iter().flat_map(|b| b.locals.iter().flat_map(|v| v.vars.iter()));
        if let Some(t) = ins.iter().chain(outs.iter()).find(|t| t.name.name == name) {
            return Some(typed(t, "parameter"));
        }
        if let Some(t) = locals.into_iter().find(|t| t.name.name == name) {
            return Some(typed(t, "var"));
        }
    }
    for d in &program.decls {
        match &d.kind {
            DeclKind::Var(v) => {
                if let Some(t) = v.vars.iter().find(|t| t.name.name == name) {
                    let mut s = typed(t, "var");
                    s.hover.push_str(&format!("\n\n{}", memory_space(&v.attrs)));
                    return Some(s);
                }
            }
            DeclKind::Const(c) => {
                if let Some(n) = c.names.iter().find(|n| n.name == name) {
                    let hover = format!("```kbpl\nconst {}: {}\n```", n.name, ivl::printer::print_type(&c.ty));
                    return Some(Symbol { span: n.span, hover });
                }
            }
            DeclKind::Function(f) if f.name.name == name => {
                return Some(Symbol { span: f.name.span, hover: signature(d) });
            }
            DeclKind::Procedure(p) if p.name.name == name => {
                return Some(Symbol { span: p.name.span, hover: signature(d) });
            }
            DeclKind::Type(t) if t.name.name == name => {
                return Some(Symbol { span: t.name.span, hover: format!("```kbpl\ntype {}\n```", t.name.name) });
            }
            _ => {}
        }
    }
    None
}

/// What a shared variable's attributes say about its memory (docs/kbpl.md §2.3).
fn memory_space(attrs: &[Attribute]) -> &'static str {
    if has_attr(attrs, "group_shared") {
        "group-shared memory: one copy per work-group, shared by its threads"
    } else if has_attr(attrs, "global") {
        "global memory: one copy shared by every thread of the grid"
    } else {
        "global memory (unmarked): shared by every thread of the grid"
    }
}

/// The first line of a declaration as printed (its signature).
fn signature(d: &Decl) -> String {
    let printed = ivl::printer::print_decl(d);
    let head: String = printed.lines().take_while(|l| !l.trim_start().starts_with('{')).collect::<Vec<_>>().join("\n");
    format!("```kbpl\n{}\n```", head.trim_end().trim_end_matches(';'))
}

/// The document's top-level declarations.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written even though it is deprecated.
fn symbols(text: &str) -> Vec<DocumentSymbol> {
    let (program, _) = ivl::parser::parse_program(text);
    let mut out = Vec::new();
    for d in &program.decls {
        let named: Vec<(&Ident, SymbolKind)> = match &d.kind {
            DeclKind::Procedure(p) => vec![(&p.name, SymbolKind::FUNCTION)],
            DeclKind::Implementation(i) => vec![(&i.name, SymbolKind::METHOD)],
            DeclKind::Function(f) => vec![(&f.name, SymbolKind::FUNCTION)],
            DeclKind::Var(v) => v.vars.iter().map(|t| (&t.name, SymbolKind::VARIABLE)).collect(),
            DeclKind::Const(c) => c.names.iter().map(|n| (n, SymbolKind::CONSTANT)).collect(),
            DeclKind::Type(t) => vec![(&t.name, SymbolKind::STRUCT)],
            DeclKind::Axiom(_) => vec![],
        };
        for (name, kind) in named {
            out.push(DocumentSymbol {
                name: name.name.to_string(),
                detail: None,
                kind,
                tags: None,
                deprecated: None,
                range: range(text, d.span),
                selection_range: range(text, name.span),
                children: None,
            });
        }
    }
    out
}
