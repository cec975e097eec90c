//! `talent import --csv FILE` (issue 6, issue 16): imports persons from a CSV file through the
//! public API in batches of up to 100 rows (`POST /api/v1/persons/batch`, D49), each batch with an
//! idempotency key (D38), and resumes safely after an interruption (decision T56).
//!
//! - The header is `email,firstName,lastName,externalId,labels,tags` (any order, no other columns).
//!   Cells are separated by `,`, or by `;` when the header has `;` and no `,` (as spreadsheets
//!   write CSV in many locales), or by `--delimiter`. `labels` and `tags` hold several values
//!   separated by `;` (by `,` in a `;`-separated file). An empty cell leaves the field out.
//! - A batch's `Idempotency-Key` is `csv-{file digest}-{first row}-{last row}-{rows}`: running the
//!   same file again sends the same rows under the same key, so a batch whose answer was lost in an
//!   interruption is replayed by the service, not executed twice; and import is idempotent on email
//!   anyway (a person's email identifies them in the organization).
//! - A journal next to the file (`FILE.talent-import`, one JSON line per finished row, flushed as it
//!   goes) records what is done; a later run of the same file skips rows that were created or already
//!   existed and retries the failed ones (a full plan may have been upgraded since). A journal of
//!   another version of the file is replaced.
//! - The summary counts created, existing, failed (with row, email and reason) and rows done by an
//!   earlier run.

use anyhow::Context;
use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use talent_client::models::ImportPerson;

/// The columns of the CSV header (issue 6).
pub const COLUMNS: [&str; 6] = ["email", "firstName", "lastName", "externalId", "labels", "tags"];

/// One data row of the file: its 1-based number among the data rows and the request body, or why
/// the row could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based number among the data rows (the header is row 0).
    pub number: u64,
    /// The `email` cell as written (for the summary).
    pub email: String,
    /// The `POST /persons` body, or why the row cannot become one.
    pub body: Result<ImportPerson, String>,
}

/// The file's rows and the digest that names this version of the file.
#[derive(Debug)]
pub struct CsvFile {
    /// Lowercase hex SHA-256 of the file's bytes, first 16 characters.
    pub digest: String,
    /// Every data row, in order.
    pub rows: Vec<Row>,
}

/// Reads and parses the CSV file with `delimiter` (`None`: detected, [`detect_delimiter`]).
/// Errors: unreadable file, or a header that is not the expected columns. A malformed row is not
/// an error: it becomes a failed row of the summary.
pub fn read_csv(path: &Path, delimiter: Option<u8>) -> anyhow::Result<CsvFile> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    parse_csv_with(&bytes, delimiter.unwrap_or_else(|| detect_delimiter(&bytes)))
}

/// The cell delimiter of a file: `;` when its first line has a `;` and no `,`, else `,`.
pub fn detect_delimiter(bytes: &[u8]) -> u8 {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    if first.contains(&b';') && !first.contains(&b',') {
        b';'
    } else {
        b','
    }
}

/// Parses the bytes of a `,`-separated CSV file as [`read_csv`] does.
pub fn parse_csv(bytes: &[u8]) -> anyhow::Result<CsvFile> {
    parse_csv_with(bytes, b',')
}

/// Parses the bytes of a CSV file whose cells are separated by `delimiter`. Errors: a header that
/// is not the expected columns; any other malformation is a failed row, never a panic (fuzzed,
/// issue 13).
pub fn parse_csv_with(bytes: &[u8], delimiter: u8) -> anyhow::Result<CsvFile> {
    let digest = hex::encode(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref())[..16].to_string();
    // Several values in one cell: `;`, or `,` where `;` separates the cells.
    let list_separator = if delimiter == b';' { ',' } else { ';' };
    let mut reader =
        csv::ReaderBuilder::new().delimiter(delimiter).flexible(true).trim(csv::Trim::All).from_reader(bytes);
    let header: Vec<String> = reader.headers().context("reading the CSV header")?.iter().map(str::to_string).collect();
    let mut index = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        anyhow::ensure!(
            COLUMNS.contains(&name.as_str()),
            "unknown CSV column '{name}'; the header is {} (cells separated by '{}'; see --delimiter)",
            COLUMNS.join(","),
            delimiter as char
        );
        anyhow::ensure!(index.insert(name.clone(), i).is_none(), "the CSV column '{name}' appears twice");
    }
    anyhow::ensure!(index.contains_key("email"), "the CSV header has no 'email' column");
    let mut rows = Vec::new();
    for (n, record) in reader.records().enumerate() {
        let number = n as u64 + 1;
        let row = match record {
            Err(e) => Row { number, email: String::new(), body: Err(format!("unreadable CSV row: {e}")) },
            Ok(r) if r.len() != header.len() => Row {
                number,
                email: r.get(index["email"]).unwrap_or_default().to_string(),
                body: Err(format!("{} cells where the header has {}", r.len(), header.len())),
            },
            Ok(r) => {
                let cell = |c: &str| index.get(c).and_then(|&i| r.get(i)).filter(|v| !v.is_empty());
                let text = |c: &str| cell(c).map(str::to_string);
                let list = |c: &str| {
                    cell(c).map(|v| {
                        v.split(list_separator).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
                    })
                };
                let email = cell("email").unwrap_or_default().to_string();
                let body = ImportPerson {
                    email: email.clone(),
                    first_name: text("firstName"),
                    last_name: text("lastName"),
                    external_id: text("externalId"),
                    labels: list("labels"),
                    tags: list("tags"),
                    invitation: None,
                };
                Row { number, email, body: Ok(body) }
            }
        };
        rows.push(row);
    }
    Ok(CsvFile { digest, rows })
}

/// Rows per request (`POST /persons/batch` takes at most 100, D49).
pub const BATCH: usize = 100;

/// The idempotency key of a batch: the same for the same file version and the same rows on every
/// run (a resumed run whose batch holds other rows sends another key).
pub fn idempotency_key(digest: &str, rows: &[u64]) -> String {
    let (first, last) = (rows.first().copied().unwrap_or(0), rows.last().copied().unwrap_or(0));
    format!("csv-{digest}-{first}-{last}-{}", rows.len())
}

/// What the service answered for one row.
#[derive(Debug, Clone, PartialEq)]
pub enum Sent {
    /// 201: created or reactivated; the person id.
    Created(String),
    /// 200 with `X-Existing-Resource: true`: already an active member; the person id.
    Existing(String),
    /// A client error for this row (400, 409, ...): `code: message`. Other rows go on.
    Rejected(String),
}

/// Why the whole import stops (the rest of the rows would fail the same way): a rejected key
/// (401/403), or the service unreachable after the client's retries. Re-running resumes.
#[derive(Debug, Clone, PartialEq)]
pub struct Fatal(pub String);

impl fmt::Display for Fatal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Sends one batch of imports (the public API through `talent_client`, or a fake in tests).
pub trait Importer {
    /// `POST /api/v1/persons/batch` with `bodies` (1 to 100) under `idempotency_key`: one
    /// [`Sent`] per body, in order.
    fn import(&mut self, bodies: &[&ImportPerson], idempotency_key: &str) -> Result<Vec<Sent>, Fatal>;
}

/// One finished row in the journal.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    row: u64,
    outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    person_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// The journal of finished rows: `FILE.talent-import`, a first line naming the file version and
/// one JSON line per finished row.
pub struct Journal {
    file: std::fs::File,
    done: HashMap<u64, Entry>,
}

/// The journal's path for a CSV file.
pub fn journal_path(csv: &Path) -> PathBuf {
    let mut name = csv.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".talent-import");
    csv.with_file_name(name)
}

impl Journal {
    /// Opens the journal of this file version, or starts a new one (replacing a journal of another
    /// version). A torn last line (an interrupted write) is ignored.
    pub fn open(path: &Path, digest: &str) -> anyhow::Result<Journal> {
        let header = format!("talent-import v1 {digest}");
        let mut done = HashMap::new();
        let mut current = false;
        if let Ok(f) = std::fs::File::open(path) {
            let mut lines = std::io::BufReader::new(f).lines();
            if lines.next().and_then(Result::ok).as_deref() == Some(header.as_str()) {
                current = true;
                for line in lines.map_while(Result::ok) {
                    if let Ok(e) = serde_json::from_str::<Entry>(&line) {
                        done.insert(e.row, e);
                    }
                }
            }
        }
        let file = if current {
            std::fs::OpenOptions::new().append(true).open(path)
        } else {
            std::fs::File::create(path).and_then(|mut f| writeln!(f, "{header}").map(|()| f))
        }
        .with_context(|| format!("writing the journal {}", path.display()))?;
        Ok(Journal { file, done })
    }

    fn finished(&self, row: u64) -> bool {
        self.done.get(&row).is_some_and(|e| e.outcome != "failed")
    }

    fn record(&mut self, e: Entry) -> anyhow::Result<()> {
        let line = serde_json::to_string(&e)?;
        writeln!(self.file, "{line}").and_then(|()| self.file.flush()).context("writing the journal")?;
        self.done.insert(e.row, e);
        Ok(())
    }
}

/// The outcome of a run.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Summary {
    /// Rows created (or reactivated) now.
    pub created: u64,
    /// Rows whose email was already an active member.
    pub existing: u64,
    /// Rows finished by an earlier run of the same file (skipped now).
    pub earlier: u64,
    /// Failed rows: (row, email, reason).
    pub failed: Vec<(u64, String, String)>,
    /// Set when the run stopped early; re-running resumes.
    pub stopped: Option<String>,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "created: {}, existing: {}, failed: {}, done by an earlier run: {}",
            self.created,
            self.existing,
            self.failed.len(),
            self.earlier
        )?;
        for (row, email, reason) in &self.failed {
            writeln!(f, "  row {row} ({email}): {reason}")?;
        }
        if let Some(why) = &self.stopped {
            writeln!(f, "stopped: {why}; run the same command again to resume")?;
        }
        Ok(())
    }
}

/// Imports every row not finished by an earlier run, [`BATCH`] rows a request, recording each in
/// the journal; `progress` is called after each batch with (rows handled, total rows). Errors:
/// the journal cannot be written. A [`Fatal`] answer stops the run with `stopped` set.
pub fn run(
    file: &CsvFile,
    journal: &mut Journal,
    importer: &mut dyn Importer,
    mut progress: impl FnMut(u64, u64),
) -> anyhow::Result<Summary> {
    let mut s = Summary::default();
    let total = file.rows.len() as u64;
    let mut handled = 0;
    let mut pending: Vec<&Row> = Vec::with_capacity(BATCH);
    let mut rows = file.rows.iter().peekable();
    while let Some(row) = rows.next() {
        handled += 1;
        match &row.body {
            _ if journal.finished(row.number) => s.earlier += 1,
            Err(why) => record(&mut s, journal, row, Sent::Rejected(why.clone()))?,
            Ok(_) => pending.push(row),
        }
        if pending.len() < BATCH && rows.peek().is_some() {
            continue;
        }
        if !pending.is_empty() {
            let numbers: Vec<u64> = pending.iter().map(|r| r.number).collect();
            let bodies: Vec<&ImportPerson> = pending.iter().filter_map(|r| r.body.as_ref().ok()).collect();
            match importer.import(&bodies, &idempotency_key(&file.digest, &numbers)) {
                Ok(sent) => {
                    let mut sent = sent.into_iter();
                    for row in pending.drain(..) {
                        let one = sent.next().unwrap_or_else(|| Sent::Rejected("no answer for this row".into()));
                        record(&mut s, journal, row, one)?;
                    }
                }
                Err(Fatal(why)) => {
                    s.stopped = Some(why);
                    break;
                }
            }
        }
        progress(handled, total);
    }
    Ok(s)
}

/// Counts and journals one row's outcome.
fn record(s: &mut Summary, journal: &mut Journal, row: &Row, sent: Sent) -> anyhow::Result<()> {
    let entry = match sent {
        Sent::Created(id) => {
            s.created += 1;
            Entry { row: row.number, outcome: "created".into(), person_id: Some(id), reason: None }
        }
        Sent::Existing(id) => {
            s.existing += 1;
            Entry { row: row.number, outcome: "existing".into(), person_id: Some(id), reason: None }
        }
        Sent::Rejected(why) => {
            s.failed.push((row.number, row.email.clone(), why.clone()));
            Entry { row: row.number, outcome: "failed".into(), person_id: None, reason: Some(why) }
        }
    };
    journal.record(entry)
}

/// [`Importer`] through the public API with `talent_client` (its retries on 429/503 included).
pub struct ApiImporter(pub talent_client::Client);

impl Importer for ApiImporter {
    fn import(&mut self, bodies: &[&ImportPerson], idempotency_key: &str) -> Result<Vec<Sent>, Fatal> {
        let owned: Vec<ImportPerson> = bodies.iter().map(|b| (*b).clone()).collect();
        match self.0.import_batch(&owned, Some(idempotency_key)) {
            Ok(r) => Ok(r
                .results
                .into_iter()
                .map(|item| match (item.person, item.error) {
                    (Some(p), _) if item.status == 201 => Sent::Created(p.person.id.to_string()),
                    (Some(p), _) => Sent::Existing(p.person.id.to_string()),
                    (None, Some(e)) => Sent::Rejected(format!("{}: {}", e.code, e.error)),
                    (None, None) => Sent::Rejected(format!("status {}", item.status)),
                })
                .collect()),
            Err(talent_client::Error::Api { status: 401 | 403, code, message, .. }) => {
                Err(Fatal(format!("the API refused the key ({code}: {message})")))
            }
            Err(talent_client::Error::Api { code, message, .. }) => {
                Ok(bodies.iter().map(|_| Sent::Rejected(format!("{code}: {message}"))).collect())
            }
            Err(e) => Err(Fatal(e.to_string())),
        }
    }
}

/// `talent import --csv FILE`: reads the file, resumes its journal, imports with a progress bar on
/// standard error, and prints the summary on standard output. Errors (exit status 1): an
/// unreadable file or header, an unwritable journal, failed rows, or a stop (re-run to resume).
pub fn command(args: &crate::config::ImportArgs) -> anyhow::Result<()> {
    let file = read_csv(&args.csv, args.delimiter.map(|c| c as u8))?;
    let journal_at = journal_path(&args.csv);
    let mut journal = Journal::open(&journal_at, &file.digest)?;
    let mut importer = ApiImporter(talent_client::Client::new(&args.api_url, &args.api_key));
    let bar = indicatif::ProgressBar::new(file.rows.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rows, {rate} rows/s, eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", s.per_sec());
            }),
    );
    let summary = run(&file, &mut journal, &mut importer, |done, _| bar.set_position(done))?;
    bar.finish_and_clear();
    print!("{summary}");
    println!("journal: {}", journal_at.display());
    if summary.stopped.is_some() {
        anyhow::bail!("the import stopped early; run the same command again to resume");
    }
    match summary.failed.len() {
        0 => {}
        1 => anyhow::bail!("1 row failed"),
        n => anyhow::bail!("{n} rows failed"),
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        /// Issue 13: any bytes after a valid header parse into rows (each a body or a reason),
        /// never a panic; arbitrary headers are refused with an error.
        #[test]
        fn any_csv_parses_into_rows_or_a_header_error(
            rows in prop::collection::vec("[a-z@.;,\"\r\n \t\x00-\x1f\u{80}-\u{10ffff}]{0,40}", 0..8),
            junk in prop::collection::vec(any::<u8>(), 0..200),
        ) {
            let text = format!("email,firstName,tags\n{}", rows.join("\n"));
            let parsed = parse_csv(text.as_bytes());
            prop_assert!(parsed.is_ok(), "{parsed:?}");
            let _ = parse_csv(&junk);
            let mut with_header = b"email,labels\n".to_vec();
            with_header.extend_from_slice(&junk);
            prop_assert!(parse_csv(&with_header).is_ok());
        }
    }

    /// Answers by email: `taken@…` exists, `bad…` is rejected, a batch holding `down@…` is fatal;
    /// records the keys and the batch sizes.
    #[derive(Default)]
    struct Fake {
        keys: Vec<String>,
        sizes: Vec<usize>,
    }
    impl Importer for Fake {
        fn import(&mut self, bodies: &[&ImportPerson], key: &str) -> Result<Vec<Sent>, Fatal> {
            self.keys.push(key.to_string());
            self.sizes.push(bodies.len());
            if bodies.iter().any(|b| b.email.starts_with("down")) {
                return Err(Fatal("connection refused".into()));
            }
            Ok(bodies
                .iter()
                .map(|b| match b.email.as_str() {
                    e if e.starts_with("taken") => Sent::Existing("p-existing".into()),
                    e if e.starts_with("bad") => Sent::Rejected("validation_error: email is invalid".into()),
                    e => Sent::Created(format!("p-{e}")),
                })
                .collect())
        }
    }

    fn write(dir: &Path, text: &str) -> PathBuf {
        let p = dir.join("people.csv");
        std::fs::write(&p, text).unwrap();
        p
    }

    /// A fresh directory, removed with everything in it when the test ends (passed or not).
    struct TempDir(PathBuf);

    impl std::ops::Deref for TempDir {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn temp() -> TempDir {
        let d = std::env::temp_dir().join(format!("talent-import-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    #[test]
    fn rows_become_import_bodies_with_lists_split_on_semicolons() {
        let dir = temp();
        let p = write(
            &dir,
            "email,firstName,lastName,externalId,labels,tags\n\
             ada@example.com,Ada,Lovelace,ats-1,candidate;employee, rust ; math \n\
             grace@example.com,,,,,\n\
             short@example.com,Only\n",
        );
        let f = read_csv(&p, None).unwrap();
        assert_eq!(f.digest.len(), 16);
        let json = |r: &Row| serde_json::to_value(r.body.as_ref().unwrap()).unwrap();
        assert_eq!(
            json(&f.rows[0]),
            json!({"email": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace", "externalId": "ats-1",
                   "labels": ["candidate", "employee"], "tags": ["rust", "math"]})
        );
        assert_eq!(json(&f.rows[1]), json!({"email": "grace@example.com"}));
        assert!(f.rows[2].body.as_ref().unwrap_err().contains("2 cells"));
        assert_eq!(f.rows[2].email, "short@example.com");
    }

    #[test]
    fn a_wrong_header_is_refused_before_anything_is_sent() {
        let dir = temp();
        for header in ["mail,firstName\n", "email,email\n", "firstName\n"] {
            let p = write(&dir, &format!("{header}x\n"));
            assert!(read_csv(&p, None).is_err(), "{header}");
        }
    }

    #[test]
    fn rows_go_in_batches_of_100_and_an_interrupted_run_resumes_with_the_same_keys() {
        let dir = temp();
        let mut text = String::from("email\n");
        for i in 0..250 {
            text.push_str(&match i {
                7 => "taken@example.com\n".to_string(),
                8 => "bad\n".to_string(),
                150 => "down@example.com\n".to_string(),
                _ => format!("p{i}@example.com\n"),
            });
        }
        let p = write(&dir, &text);
        let f = read_csv(&p, None).unwrap();
        let jp = journal_path(&p);
        assert!(jp.ends_with("people.csv.talent-import"));

        // Rows 1-100 go in one request; the batch of rows 101-200 holds the unreachable row.
        let mut first = Fake::default();
        let s = run(&f, &mut Journal::open(&jp, &f.digest).unwrap(), &mut first, |_, _| {}).unwrap();
        assert_eq!(first.sizes, [100, 100]);
        assert_eq!(first.keys[0], format!("csv-{}-1-100-100", f.digest));
        assert_eq!((s.created, s.existing, s.failed.len()), (98, 1, 1));
        assert_eq!(s.stopped.as_deref(), Some("connection refused"));
        assert_eq!(s.failed[0], (9, "bad".to_string(), "validation_error: email is invalid".to_string()));
        assert!(s.to_string().contains("run the same command again"));

        // The second run, the service back: rows 1-100 are skipped but the failed row 9, which goes
        // with the next 99 pending rows; those are rows 101-199, whose batch before had row 200 in
        // place of row 9: another key. Row 151 now answers.
        let mut rows = f.rows.clone();
        rows[150].body = Ok(ImportPerson { email: "up@example.com".into(), ..Default::default() });
        let f2 = CsvFile { digest: f.digest.clone(), rows };
        let mut second = Fake::default();
        let mut seen = Vec::new();
        let s =
            run(&f2, &mut Journal::open(&jp, &f.digest).unwrap(), &mut second, |done, total| seen.push((done, total)))
                .unwrap();
        assert_eq!(s.earlier, 99);
        assert_eq!(second.sizes, [100, 51]);
        assert_eq!(second.keys[0], format!("csv-{}-9-199-100", f.digest));
        assert_eq!((s.created, s.failed.len(), s.stopped.clone()), (150, 1, None));
        assert_eq!(seen.last(), Some(&(250, 250)));

        // A third run has nothing left but the failing row.
        let mut third = Fake::default();
        let s = run(&f2, &mut Journal::open(&jp, &f.digest).unwrap(), &mut third, |_, _| {}).unwrap();
        assert_eq!((s.earlier, third.sizes.clone()), (249, vec![1]));
        assert_eq!(third.keys[0], format!("csv-{}-9-9-1", f.digest));
    }

    #[test]
    fn a_semicolon_separated_file_is_read_with_comma_separated_lists() {
        let text = "email;firstName;tags\nada@example.com;Ada;rust, math\n";
        assert_eq!(detect_delimiter(text.as_bytes()), b';');
        let f = parse_csv_with(text.as_bytes(), b';').unwrap();
        let body = f.rows[0].body.as_ref().unwrap();
        assert_eq!(body.first_name.as_deref(), Some("Ada"));
        assert_eq!(body.tags, Some(vec!["rust".to_string(), "math".to_string()]));
        assert_eq!(detect_delimiter(b"email,tags\na@b.c,x;y\n"), b',');
        let err = parse_csv(text.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("--delimiter"), "{err}");
    }

    #[test]
    fn a_journal_of_another_file_version_or_a_torn_line_is_not_trusted() {
        let dir = temp();
        let jp = dir.join("j");
        {
            let mut j = Journal::open(&jp, "aaaa").unwrap();
            j.record(Entry { row: 1, outcome: "created".into(), person_id: Some("p".into()), reason: None }).unwrap();
        }
        let mut f = std::fs::OpenOptions::new().append(true).open(&jp).unwrap();
        write!(f, "{{\"row\":2,\"outcome\":\"crea").unwrap();
        assert!(Journal::open(&jp, "aaaa").unwrap().finished(1));
        assert!(!Journal::open(&jp, "aaaa").unwrap().finished(2));
        assert!(!Journal::open(&jp, "bbbb").unwrap().finished(1), "another version starts over");
        assert!(!Journal::open(&jp, "aaaa").unwrap().finished(1), "and replaced the old journal");
    }

    /// Garbage in, clear error or failed rows out, never a panic (deterministic mutations).
    #[test]
    fn mutated_csv_files_never_panic() {
        let dir = temp();
        let seed =
            "email,firstName,lastName,externalId,labels,tags\na@b.co,A,B,x,candidate;employee,t1;t2\n\"q\"\"\",,,,,\n";
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2_000 {
            let mut bytes = seed.as_bytes().to_vec();
            for _ in 0..=(next() % 6) {
                let i = (next() as usize) % (bytes.len() + 1);
                match next() % 3 {
                    0 if i < bytes.len() => bytes[i] = next() as u8,
                    1 => bytes.insert(i, [b',', b'"', b'\n', b';', 0xff][(next() % 5) as usize]),
                    _ => bytes.truncate(i),
                }
            }
            let p = dir.join("fuzz.csv");
            std::fs::write(&p, &bytes).unwrap();
            if let Ok(f) = read_csv(&p, None) {
                for r in &f.rows {
                    if let Ok(b) = &r.body {
                        assert_eq!(b.email, r.email);
                    }
                }
            }
        }
    }
}
