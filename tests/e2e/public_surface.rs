//! What users read speaks of the product only: no decision, task or issue numbers of the
//! development and no pointers into the contract's working folder in the README, the user
//! documentation, the SDKs' READMEs, the OpenAPI document and the CLI's help. The decision log
//! and the architecture notes are for contributors and cite them freely. The dashboard's pages
//! are checked the same way by the browser walk (`dashboard.rs`), every page it shows.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The contract's folder beside the repository, a path users cannot follow; spelled in parts so
/// that this file does not hold what it looks for.
const CONTRACT_PATHS: [&str; 2] = [concat!("..", "/shared"), concat!("shared", "/spec")];

/// The internal references in `text`: a `D` or `T` with one to three digits (decision and task
/// numbers), "issue" with a number, "Set A" and
/// "Set B" (the contract's names for the rate-limit modes), and paths into the contract's folder
/// ([`CONTRACT_PATHS`]).
pub fn internal_references(text: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .filter(|t| {
            let mut chars = t.chars();
            matches!(chars.next(), Some('D' | 'T'))
                && (1..=3).contains(&chars.as_str().len())
                && chars.all(|c| c.is_ascii_digit())
        })
        .map(str::to_string)
        .collect();
    let lower = text.to_lowercase();
    for (i, _) in lower.match_indices("issue ") {
        let rest = lower[i + "issue ".len()..].trim_start_matches('#');
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            found.push(format!("issue {}", rest.chars().take_while(char::is_ascii_digit).collect::<String>()));
        }
    }
    for phrase in ["Set A", "Set B"].into_iter().chain(CONTRACT_PATHS) {
        if text.contains(phrase) {
            found.push(phrase.to_string());
        }
    }
    found
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files users read: the README, `docs/` but the decision log and the architecture notes,
/// the connector guides, the examples, the SDKs' READMEs and the OpenAPI document.
fn user_files() -> Vec<PathBuf> {
    let r = repo();
    let mut files = vec![r.join("README.md"), r.join("sdks/python/README.md"), r.join("sdks/typescript/README.md")];
    for dir in ["docs", "docs/connectors", "docs/examples"] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(r.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .filter(|p| !p.extension().is_some_and(|x| x == "png" || x == "csv"))
            .filter(|p| !p.ends_with("docs/decisions.md") && !p.ends_with("docs/architecture.md"))
            .collect();
        here.sort();
        files.append(&mut here);
    }
    files
}

#[test]
fn the_user_documentation_and_the_openapi_document_name_no_internal_references() {
    let mut refs = vec![];
    for f in user_files() {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for line in text.lines() {
            let found = internal_references(line);
            if !found.is_empty() {
                refs.push(format!("{}: {found:?} in {line:.160}", f.display()));
            }
        }
    }
    assert!(refs.is_empty(), "internal references where users read:\n{}", refs.join("\n"));
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_talent")).args(args).output().expect("run talent");
    assert!(out.status.success(), "talent {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_cli_help_of_every_command_names_no_internal_references() {
    let top = help(&["--help"]);
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 4, "the commands of `talent --help`: {commands:?}");
    let mut refs = vec![];
    for (name, text) in std::iter::once(("talent".to_string(), top.clone()))
        .chain(commands.iter().map(|c| (format!("talent {c}"), help(&[c, "--help"]))))
    {
        let found = internal_references(&text);
        if !found.is_empty() {
            refs.push(format!("{name} --help: {found:?}"));
        }
    }
    assert!(refs.is_empty(), "internal references in the CLI's help:\n{}", refs.join("\n"));
}

#[test]
fn internal_references_are_found_and_product_words_are_not() {
    // The samples are made here, so that this file does not hold what it looks for.
    let (d12, t140, d7, issue) = (format!("D{}", 12), format!("T{}", 140), format!("D{}", 7), format!("issue {}", 36));
    let sample = format!("as {d12} says ({t140}), see {issue} and {d7}.");
    assert_eq!(internal_references(&sample), [d12.as_str(), &t140, &d7, &issue]);
    let path = format!("{}/spec", CONTRACT_PATHS[0]);
    assert_eq!(
        internal_references(&format!("per-key (Set A) in {path}")),
        ["Set A", CONTRACT_PATHS[0], CONTRACT_PATHS[1]]
    );
    for clean in ["pgbench -T10", "HTTP/1.1 on port 8080", "DT", "D1234x", "the issue is fixed", "TD2x"] {
        assert!(internal_references(clean).is_empty(), "{clean}: {:?}", internal_references(clean));
    }
}
