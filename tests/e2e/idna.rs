//! Internationalized email domains (D55) over HTTP and with the real binary, on both backends:
//! `a@münchen.de` and `a@xn--mnchen-3ya.de` are one address wherever addresses are compared or
//! stored (imports single, batch and CSV, the `email` filters, invitations, the employee-domain
//! rule, the admin API's export, erasure and email log), answered in ASCII form; and
//! `talent migrate` rewrites addresses stored before in Unicode form, leaving and reporting rows
//! that would merge.

use crate::persons::enc;
use crate::support::*;
use serde_json::{json, Value};
use std::process::Command;

const UNICODE: &str = "a@münchen.de";
const ASCII: &str = "a@xn--mnchen-3ya.de";

fn ok(r: Resp) -> Value {
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap_or_else(|| panic!("no id in {v}")).to_string()
}

// D55 with D9, D12, D15, D18, D45, D49: every spelling of the domain reaches the same person,
// invitation and human; what is stored and answered is the ASCII form; a domain that is not a
// valid internationalized domain name is a validation error. The real binary (`talent serve`,
// `talent import`).
crate::e2e!(
    an_address_is_one_person_in_either_spelling_of_its_internationalized_domain_d55,
    Opts { sandbox: true, process: true, ..Default::default() },
    |app| {
        let org = app.org_with(json!({
            "companyName": "Stadtwerke", "email": "HR@München.de", "plan": "business",
            "employeeDomains": ["@München.DE", "xn--mnchen-3ya.de", "bücher.example"],
        }));
        let o = ok(app.admin("GET", &format!("/admin/v1/organizations/{}", org.id), None));
        assert_eq!(o["email"], "hr@xn--mnchen-3ya.de");
        assert_eq!(o["employeeDomains"], json!(["xn--mnchen-3ya.de", "xn--bcher-kva.example"]), "ASCII, once each");

        // Imports: the Unicode spelling creates, the ASCII one (any case) is the same person.
        let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": UNICODE, "firstName": "Anna"}));
        assert_eq!(r.status, 201, "{}", r.text);
        let p = r.json.clone();
        assert_eq!(p["email"], ASCII, "stored and answered in ASCII form");
        assert_eq!(p["labels"], json!(["candidate", "employee"]), "the employee domain matches");
        for again in [ASCII, " A@XN--MNCHEN-3YA.DE "] {
            let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": again, "lastName": "Huber"}));
            assert_eq!(r.status, 200, "{again}: {}", r.text);
            assert_eq!(r.header("x-existing-resource"), Some("true"));
            assert_eq!(id(&r.json), id(&p));
        }
        let batch = app.send(
            "POST",
            "/api/v1/persons/batch",
            &org.key,
            &json!({"persons": [{"email": "A@MÜNCHEN.DE"}, {"email": ASCII}, {"email": "b@xn--bcher-kva.example"}]}),
        );
        let items = ok(batch)["results"].as_array().unwrap().clone();
        let statuses: Vec<u64> = items.iter().map(|i| i["status"].as_u64().unwrap()).collect();
        assert_eq!(statuses, [200, 200, 201], "{items:?}");
        assert_eq!(id(&items[0]["person"]), id(&p));
        assert_eq!(items[2]["person"]["labels"], json!(["candidate", "employee"]));

        // The list filter, in either spelling.
        for spelling in [UNICODE, ASCII, "A@München.de"] {
            let found = ok(app.get(&format!("/api/v1/persons?email={}", enc(spelling)), &org.key));
            let ids: Vec<String> = found["data"].as_array().unwrap().iter().map(id).collect();
            assert_eq!(ids, vec![id(&p)], "{spelling}");
        }

        // Invitations: either spelling returns the one pending invitation, and filters find it.
        let first =
            app.send("POST", "/api/v1/invitations", &org.key, &json!({"email": "c@münchen.de", "sendEmail": true}));
        assert_eq!(first.status, 201, "{}", first.text);
        assert_eq!(first.json["email"], "c@xn--mnchen-3ya.de");
        let again = app.send(
            "POST",
            "/api/v1/invitations",
            &org.key,
            &json!({"email": "C@xn--mnchen-3ya.de", "sendEmail": true}),
        );
        assert_eq!(again.status, 200, "{}", again.text);
        assert_eq!(again.header("x-existing-resource"), Some("true"));
        assert_eq!(id(&again.json), id(&first.json), "the same pending invitation");
        let listed = ok(app.get(&format!("/api/v1/invitations?email={}", enc("c@münchen.de")), &org.key));
        assert_eq!(listed["data"].as_array().unwrap().iter().map(id).collect::<Vec<_>>(), vec![id(&first.json)]);
        for to in ["c@münchen.de", "c@xn--mnchen-3ya.de"] {
            let mails = ok(app.admin("GET", &format!("/admin/v1/emails?to={}", enc(to)), None));
            assert_eq!(mails["data"].as_array().unwrap().len(), 1, "{to}: {mails}");
        }

        // The operator's export finds the membership by either spelling.
        for spelling in [UNICODE, ASCII] {
            let x = ok(app.admin("GET", &format!("/admin/v1/humans/export?email={}", enc(spelling)), None));
            let people: Vec<String> = x["memberships"].as_array().unwrap().iter().map(|m| id(&m["person"])).collect();
            assert_eq!(people, vec![id(&p)], "{spelling}: {x}");
        }

        // A user added in one spelling is the same user in the other (one per address and organization).
        let u = app.admin(
            "POST",
            &format!("/admin/v1/organizations/{}/users", org.id),
            Some(&json!({"email": "Chef@München.de", "role": "member"})),
        );
        assert_eq!(u.status, 201, "{}", u.text);
        assert_eq!(u.json["email"], "chef@xn--mnchen-3ya.de");
        let twice = app.admin(
            "POST",
            &format!("/admin/v1/organizations/{}/users", org.id),
            Some(&json!({"email": "chef@xn--mnchen-3ya.de", "role": "member"})),
        );
        assert_eq!(twice.status, 409, "{}", twice.text);

        // Not a valid internationalized domain name: a validation error that says so.
        for bad in ["a@-münchen.de", "a@xn--zz-.de", "jürgen@münchen.de"] {
            let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": bad}));
            r.assert_error(400, "validation_error");
            assert_eq!(r.json["details"]["fields"][0]["field"], "email", "{}", r.text);
            assert!(r.json["details"]["fields"][0]["message"].as_str().unwrap().contains("valid email address"));
        }
        let r = app.admin(
            "PATCH",
            &format!("/admin/v1/organizations/{}", org.id),
            Some(&json!({"employeeDomains": ["-münchen.de"]})),
        );
        r.assert_error(400, "validation_error");

        // `talent import`: a CSV holding both spellings creates one person.
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("idna-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = dir.join("people.csv");
        std::fs::write(&csv, "email,firstName\nd@bücher.example,Dora\nD@XN--BCHER-KVA.EXAMPLE,\na@münchen.de,\n")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_talent"))
            .args(["import", "--csv"])
            .arg(&csv)
            .args(["--api-url", &app.base, "--api-key", &org.key])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("created: 1, existing: 2, failed: 0"), "{text}");
        let d = ok(app.get(&format!("/api/v1/persons?email={}", enc("d@bücher.example")), &org.key));
        assert_eq!(d["data"].as_array().unwrap().len(), 1);
        assert_eq!(d["data"][0]["email"], "d@xn--bcher-kva.example");

        // The operator's erasure by the other spelling erases the one membership.
        let erased = ok(app.admin("POST", "/admin/v1/humans/erase", Some(&json!({"email": "A@MÜNCHEN.DE"}))));
        assert_eq!(erased["memberships"], 1, "{erased}");
        app.admin("GET", &format!("/admin/v1/humans/export?email={}", enc(ASCII)), None).assert_error(404, "not_found");
    }
);

// D55, T146: rows stored before addresses were normalized hold Unicode domains (written here by
// SQL). `talent migrate` rewrites those that merge with nothing, leaves the two persons of one
// organization (and their two humans) that would become one, and prints one warning for each
// such group with the table, the ids and the domain, never the address. A second run rewrites
// nothing and warns again.
crate::e2e!(
    talent_migrate_rewrites_stored_unicode_domains_and_warns_of_rows_that_would_merge_d55,
    Default::default(),
    |app| {
        let org = app.org("business", "active");
        let lone = app.import(&org.key, json!({"email": "lone@xn--mnchen-3ya.de"}));
        let twin = app.import(&org.key, json!({"email": "twin@xn--bcher-kva.example"}));
        let old_twin = app.import(&org.key, json!({"email": "was-twin@xn--bcher-kva.example"}));
        let url = app.db_url();
        let before = r#"
        UPDATE persons SET email = 'lone@münchen.de' WHERE email = 'lone@xn--mnchen-3ya.de';
        UPDATE humans SET email = 'lone@münchen.de' WHERE email = 'lone@xn--mnchen-3ya.de';
        UPDATE persons SET email = 'twin@bücher.example' WHERE email = 'was-twin@xn--bcher-kva.example';
        UPDATE humans SET email = 'twin@bücher.example' WHERE email = 'was-twin@xn--bcher-kva.example';
    "#;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(talent_store::testing::execute(&url, before)).unwrap();
        assert_eq!(ok(app.get(&format!("/api/v1/persons/{}", id(&lone)), &org.key))["email"], "lone@münchen.de");

        let migrate = || {
            let mut c = Command::new(env!("CARGO_BIN_EXE_talent"));
            c.arg("migrate").env("DATABASE_URL", &url).env("TALENT_LOG", "warn");
            if app.backend == Backend::Postgres {
                c.env("TALENT_SECRET_KEY", "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2");
            }
            let out = c.output().unwrap();
            let (stdout, stderr) =
                (String::from_utf8_lossy(&out.stdout).to_string(), String::from_utf8_lossy(&out.stderr).to_string());
            assert!(out.status.success(), "{stdout}\n{stderr}");
            assert!(stdout.contains("Migrations applied."), "{stdout}");
            stderr
        };
        let mut pair = [id(&twin), id(&old_twin)];
        pair.sort();
        let want = format!(
        "warning: persons: rows {}, {} would become one with their domain in ASCII form (xn--bcher-kva.example); left as they are",
        pair[0], pair[1]
    );
        for run in 0..2 {
            let stderr = migrate();
            assert!(stderr.contains(&want), "run {run}: {stderr}");
            assert!(stderr.contains("warning: humans: rows "), "run {run}: {stderr}");
            assert_eq!(stderr.matches("warning:").count(), 2, "one per group, run {run}: {stderr}");
            assert!(!stderr.contains("twin@") && !stderr.contains("lone"), "no address in the output: {stderr}");
        }
        // The running service reads what the migration wrote.
        assert_eq!(ok(app.get(&format!("/api/v1/persons/{}", id(&lone)), &org.key))["email"], "lone@xn--mnchen-3ya.de");
        assert_eq!(
            ok(app.get(&format!("/api/v1/persons/{}", id(&old_twin)), &org.key))["email"],
            "twin@bücher.example"
        );
        let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "LONE@münchen.de"}));
        assert_eq!((r.status, id(&r.json)), (200, id(&lone)), "{}", r.text);
    }
);
