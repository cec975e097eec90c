//! `talent import --csv FILE` against the real binary (issue 6; T56): a summary of created,
//! existing and failed rows, idempotency keys, and resuming after an interruption without
//! creating anyone twice.

use crate::support::*;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory under cargo's per-target temporary directory (`target/tmp`), not `/tmp`.
fn temp_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("talent-import-e2e-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `talent import`; returns (success, stdout, stderr).
fn import(app_base: &str, key: &str, csv: &Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_talent"))
        .args(["import", "--csv"])
        .arg(csv)
        .args(["--api-url", app_base, "--api-key", key])
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn count(app: &TestApp, key: &str) -> u64 {
    app.get("/api/v1/organization", key).json["usage"]["persons"]["used"].as_u64().unwrap()
}

crate::e2e!(a_csv_import_reports_created_existing_and_failed_rows_and_resumes, Default::default(), |app| {
    let org = app.org("business", "active");
    app.import(&org.key, json!({"email": "known@example.com"}));
    let dir = temp_dir();
    let csv = dir.join("people.csv");
    std::fs::write(
        &csv,
        "email,firstName,lastName,externalId,labels,tags\n\
         ada@example.com,Ada,Lovelace,ats-1,candidate;employee,rust;math\n\
         known@example.com,,,,,\n\
         not-an-email,,,,,\n\
         grace@example.com,Grace,,,,\n\
         linus@example.com,,,ats-4,,\n",
    )
    .unwrap();

    let (ok, out, err) = import(&app.base, &org.key, &csv);
    assert!(!ok, "a failed row makes the exit status non-zero");
    assert!(out.contains("created: 3, existing: 1, failed: 1, done by an earlier run: 0"), "{out}\n{err}");
    assert!(out.contains("row 3 (not-an-email): validation_error"), "{out}");
    assert_eq!(count(app, &org.key), 4);
    let ada = app.get("/api/v1/persons?email=ada@example.com", &org.key).json["data"][0].clone();
    assert_eq!(ada["labels"], json!(["candidate", "employee"]));
    assert_eq!(ada["tags"], json!(["math", "rust"]));
    assert_eq!(ada["externalId"], "ats-1");

    // The same file again: finished rows are skipped, the failed row is tried again.
    let (_, out, _) = import(&app.base, &org.key, &csv);
    assert!(out.contains("created: 0, existing: 0, failed: 1, done by an earlier run: 4"), "{out}");

    // An interruption after row 2 (the journal lost rows 4 and 5): they go out again, with the
    // failed row 3, in a batch of other rows than before (so under another idempotency key, D49);
    // import is idempotent on email, so nobody is created twice.
    let journal = dir.join("people.csv.talent-import");
    let text = std::fs::read_to_string(&journal).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains("\"row\":4") && !l.contains("\"row\":5")).collect();
    std::fs::write(&journal, kept.join("\n") + "\n").unwrap();
    let (_, out, _) = import(&app.base, &org.key, &csv);
    assert!(out.contains("created: 0, existing: 2, failed: 1, done by an earlier run: 2"), "{out}");
    assert_eq!(count(app, &org.key), 4, "no duplicates");
});

crate::e2e!(an_unreachable_service_or_a_refused_key_stops_the_import_for_a_later_resume, Default::default(), |app| {
    let org = app.org("business", "active");
    let dir = temp_dir();
    let csv = dir.join("people.csv");
    std::fs::write(&csv, "email\na@example.com\nb@example.com\n").unwrap();

    let (ok, out, err) = import(&app.base, "tk_not_a_real_key_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", &csv);
    assert!(!ok);
    assert!(out.contains("stopped: the API refused the key"), "{out}\n{err}");
    assert!(out.contains("run the same command again"), "{out}");

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let (ok, out, _) = import(&dead, &org.key, &csv);
    assert!(!ok);
    assert!(out.contains("created: 0") && out.contains("stopped: transport"), "{out}");

    let (ok, out, _) = import(&app.base, &org.key, &csv);
    assert!(ok, "{out}");
    assert!(out.contains("created: 2, existing: 0, failed: 0"), "{out}");

    std::fs::write(dir.join("bad.csv"), "mail,name\nx,y\n").unwrap();
    let (ok, _, err) = import(&app.base, &org.key, &dir.join("bad.csv"));
    assert!(!ok);
    assert!(err.contains("unknown CSV column 'mail'"), "{err}");
});

// Issue 16, D49: 5,000 rows go in 50 batches of 100, well inside a business key's 300 requests a
// minute (D7) with the limiter on; one request per row (the old way) would have needed 17
// minutes of that budget.
crate::e2e!(
    five_thousand_rows_import_in_fifty_requests_within_the_keys_budget_d49,
    Opts { rate_limit_mode: "per-key", ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let dir = temp_dir();
        let csv = dir.join("big.csv");
        let mut text = String::from("email,firstName,tags\n");
        for i in 0..5_000 {
            text.push_str(&format!("big{i}@example.com,Big{i},bulk\n"));
        }
        std::fs::write(&csv, text).unwrap();
        let started = std::time::Instant::now();
        let (ok, out, err) = import(&app.base, &org.key, &csv);
        assert!(ok, "{out}\n{err}");
        assert!(out.contains("created: 5000, existing: 0, failed: 0, done by an earlier run: 0"), "{out}");
        eprintln!("talent import of 5,000 rows on {:?}: {:?}", app.backend, started.elapsed());
        assert_eq!(count(app, &org.key), 5_000);
        let me = app.get("/api/v1/me", &org.key);
        let remaining: u64 = me.header("x-ratelimit-remaining").unwrap().parse().unwrap();
        assert!(remaining >= 240, "about 50 of 300 requests used: {remaining} left");
        let _ = std::fs::remove_dir_all(&dir);
    }
);
