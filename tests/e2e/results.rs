//! Results, profiles, matches and reports over HTTP (spec "Person results", concepts 3 and 4;
//! D2, D3, D5, D11, D23-D28, D36, D39). `docs/scoring.md` gives the formulas checked here.
use crate::support::{Org, Resp, TestApp};
use serde_json::{json, Value};
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().map(|k| k.as_str()).collect()
}

fn set<'a>(v: &[&'a str]) -> BTreeSet<&'a str> {
    v.iter().copied().collect()
}

/// Imports a person into the organization of `org`; returns the person id.
fn person(app: &TestApp, org: &Org, email: &str, last_name: Option<&str>) -> String {
    let mut body = json!({"email": email});
    if let Some(l) = last_name {
        body["lastName"] = json!(l);
    }
    app.import(&org.key, body)["id"].as_str().unwrap().to_string()
}

/// `POST /admin/v1/persons/{id}/assessments` (D39); asserts 200.
fn assess(app: &TestApp, person: &str, body: Value) -> Value {
    let r = app.admin("POST", &format!("/admin/v1/persons/{person}/assessments"), Some(&body));
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn complete(app: &TestApp, person: &str, seed: u64) -> Value {
    assess(app, person, json!({"complete": true, "seed": seed}))
}

fn results(app: &TestApp, org: &Org, person: &str) -> Value {
    let r = app.get(&format!("/api/v1/persons/{person}/results"), &org.key);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn get_person(app: &TestApp, org: &Org, person: &str) -> Value {
    let r = app.get(&format!("/api/v1/persons/{person}"), &org.key);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn create_profile(app: &TestApp, org: &Org, body: &Value) -> Resp {
    app.admin("POST", &format!("/admin/v1/organizations/{}/profiles", org.id), Some(body))
}

/// A profile through the admin API; asserts 201; returns the body.
fn profile(app: &TestApp, org: &Org, name: &str, comps: &[(&str, f64)]) -> Value {
    let body = json!({
        "name": name,
        "description": format!("{name} role"),
        "competencies": comps.iter().map(|(id, w)| json!({"competencyId": id, "weight": w})).collect::<Vec<_>>(),
    });
    let r = create_profile(app, org, &body);
    assert_eq!(r.status, 201, "{}", r.text);
    r.json
}

/// D2: half-open bands on the unrounded score.
fn band(score: f64) -> &'static str {
    if score >= 0.65 {
        "high"
    } else if score >= 0.55 {
        "moderate"
    } else if score >= 0.45 {
        "some"
    } else {
        "limited"
    }
}

/// D3: match categories.
fn category(pct: u64) -> &'static str {
    match pct {
        70.. => "high",
        50..=69 => "moderate",
        _ => "low",
    }
}

fn field_paths(r: &Resp) -> Vec<String> {
    r.json["details"]["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("no details.fields in {}", r.text))
        .iter()
        .map(|f| f["field"].as_str().unwrap().to_string())
        .collect()
}

/// The competency id of `name` in a results body.
fn competency<'a>(results: &'a Value, name: &str) -> &'a Value {
    results["competencies"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("competency {name}"))
}

fn need<'a>(results: &'a Value, name: &str) -> &'a Value {
    results["motivationAxes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["needs"].as_array().unwrap().iter())
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("need {name}"))
}

const DRIVE: &str = "9b51d491-f098-59ce-a81a-e3eba994b8ad";
const COACHING: &str = "daa80362-13b3-5739-b3d0-cc71f296243c";
const INNOVATION: &str = "13ab7839-a749-5ca4-ab1a-8bac74fd4c4f";
const QUALITY: &str = "f877f074-4866-5b32-9285-21356c7f5325";
const ADAPTABILITY: &str = "88ffa939-f60f-5a11-9492-064762e80521";

/// Checks every key and value range of a results body with `hasResults: true`.
fn assert_full_results(r: &Value, person: &str) {
    assert_eq!(
        keys(r),
        set(&["personId", "hasResults", "totals", "motivationAxes", "competencies", "personality", "accommodations"])
    );
    assert_eq!(r["personId"], json!(person));
    assert_eq!(r["hasResults"], json!(true));
    assert_eq!(keys(&r["totals"]), set(&["assessments", "responses"]));
    assert!(r["totals"]["assessments"].as_u64().unwrap() >= 1);
    let axes = r["motivationAxes"].as_array().unwrap();
    assert_eq!(axes.len(), 4, "ACH, AUT, REL, SEC");
    let mut exposure = 0;
    for a in axes {
        assert_eq!(keys(a), set(&["code", "name", "needs"]));
        assert!(a["code"].as_str().is_some_and(|s| !s.is_empty()) && a["name"].as_str().is_some());
        let needs = a["needs"].as_array().unwrap();
        assert_eq!(needs.len(), 4);
        assert_eq!(needs.iter().filter(|n| n["isAnchor"] == json!(true)).count(), 1, "one anchor per axis");
        for n in needs {
            assert_eq!(keys(n), set(&["name", "definition", "isAnchor", "score", "exposure"]));
            assert!(n["name"].is_string() && n["definition"].as_str().is_some_and(|d| !d.is_empty()));
            assert!(n["isAnchor"].is_boolean());
            let s = n["score"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&s), "{n}");
            exposure += n["exposure"].as_u64().unwrap_or_else(|| panic!("integer exposure: {n}"));
        }
    }
    assert_eq!(exposure, 2 * r["totals"]["responses"].as_u64().unwrap(), "each response shows two needs");
    let c = &r["competencies"];
    assert_eq!(keys(c), set(&["modelName", "mappingName", "scores"]));
    assert_eq!(c["modelName"], "Talent Motivation Model");
    assert_eq!(c["mappingName"], "Talent Core Mapping 2026");
    let scores = c["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 14);
    for s in scores {
        assert_eq!(keys(s), set(&["competencyId", "name", "description", "score", "band"]));
        assert!(uuid::Uuid::parse_str(s["competencyId"].as_str().unwrap()).is_ok());
        assert!(s["name"].is_string());
        assert!(s["description"].is_string() || s["description"].is_null());
        let v = s["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&v), "{s}");
        assert_eq!(s["band"], json!(band(v)), "D2 band of {s}");
    }
    assert_eq!(keys(&r["personality"]), set(&["markdown", "generatedAt"]));
    assert!(r["personality"]["markdown"].as_str().is_some_and(|m| !m.trim().is_empty()));
    assert!(talent_domain::timefmt::parse(r["personality"]["generatedAt"].as_str().unwrap()).is_some());
}

/// The raw body of a comparative response never carries a competency score (concept 4, D3).
fn assert_no_competency_scores(r: &Resp) {
    assert!(!r.text.contains("score"), "no score in a comparative response: {}", r.text);
    assert!(!r.text.contains("band"), "no band in a comparative response: {}", r.text);
}

fn assert_match_item(m: &Value) {
    assert_eq!(keys(m), set(&["personId", "profileId", "percentage", "category"]), "{m}");
    let p = m["percentage"].as_u64().unwrap_or_else(|| panic!("integer percentage: {m}"));
    assert!(p <= 100);
    assert_eq!(m["category"], json!(category(p)), "D3 category of {m}");
}

// ---------------------------------------------------------------------------------------------
// Results (spec "Person results"; D2, D23, D24, D39)
// ---------------------------------------------------------------------------------------------

crate::e2e!(results_appear_after_completion_with_every_field_and_add_up, Default::default(), |app| {
    let org = app.org("business", "active");
    let id = person(app, &org, "ada@example.com", Some("Lovelace"));

    // No completed assessment: every field present, null (spec: hasResults false).
    let r = results(app, &org, &id);
    assert_eq!(
        r,
        json!({"personId": id, "hasResults": false, "totals": null, "motivationAxes": null,
               "competencies": null, "personality": null, "accommodations": null})
    );
    let p = get_person(app, &org, &id);
    assert_eq!(p["assessment"], json!({"status": "not_started", "completedAt": null, "count": 0}));

    // Started: in progress, still no results.
    let started = assess(app, &id, json!({"complete": false}));
    assert_eq!(started["status"], "in_progress");
    assert_eq!(started["completedAt"], Value::Null);
    assert_eq!(started["personId"], json!(id));
    let p = get_person(app, &org, &id);
    assert_eq!(p["assessment"], json!({"status": "in_progress", "completedAt": null, "count": 0}));
    assert_eq!(results(app, &org, &id)["hasResults"], json!(false));

    // Completed with a seed: the running assessment is completed, 48 seeded responses.
    let done = complete(app, &id, 1);
    assert_eq!(done["id"], started["id"], "the running assessment is completed");
    assert_eq!((done["status"].as_str(), done["responses"].as_u64()), (Some("completed"), Some(48)));
    let completed_at = done["completedAt"].as_str().unwrap().to_string();
    let p = get_person(app, &org, &id);
    assert_eq!(p["assessment"], json!({"status": "completed", "completedAt": completed_at, "count": 1}));
    let r = results(app, &org, &id);
    assert_full_results(&r, &id);
    assert_eq!(r["totals"], json!({"assessments": 1, "responses": 48}));
    assert_eq!(r["personality"]["generatedAt"], json!(completed_at), "D24: when the results last changed");

    // A second completion: cumulative (spec), twice the responses, a later generatedAt.
    let again = complete(app, &id, 2);
    assert_ne!(again["id"], done["id"]);
    let r2 = results(app, &org, &id);
    assert_full_results(&r2, &id);
    assert_eq!(r2["totals"], json!({"assessments": 2, "responses": 96}));
    assert_eq!(r2["personality"]["generatedAt"], again["completedAt"]);
    assert_ne!(r2["competencies"]["scores"], r["competencies"]["scores"], "the new responses count");
    let p = get_person(app, &org, &id);
    assert_eq!(p["assessment"]["count"], json!(2));
    assert_eq!(p["assessment"]["completedAt"], again["completedAt"]);
    // Same seed, same responses (D39 sandbox determinism): a third person with seed 1 only
    // scores as the first one did.
    let twin = person(app, &org, "twin@example.com", None);
    complete(app, &twin, 1);
    let t = results(app, &org, &twin);
    assert_eq!(t["competencies"], r["competencies"]);
    assert_eq!(t["motivationAxes"], r["motivationAxes"]);
});

crate::e2e!(explicit_responses_reproduce_the_documented_formulas, Default::default(), |app| {
    let org = app.org("business", "active");
    let id = person(app, &org, "ada@example.com", None);
    let body = json!({"complete": true, "responses": [{"shown": ["mastery", "results"], "chosen": "mastery"}]});
    let done = assess(app, &id, body);
    assert_eq!(done["responses"], json!(1));
    let r = results(app, &org, &id);
    assert_full_results(&r, &id);
    assert_eq!(r["totals"], json!({"assessments": 1, "responses": 1}));

    // Formula 1: (chosen + 1) / (exposure + 2).
    let mastery = need(&r, "Mastery");
    assert_eq!(mastery["exposure"], json!(1));
    assert_eq!(mastery["isAnchor"], json!(true));
    let m = mastery["score"].as_f64().unwrap();
    assert!((m - (1.0 + 1.0) / (1.0 + 2.0)).abs() < 1e-9, "{m}");
    let res = need(&r, "Results");
    assert!((res["score"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
    let unseen = need(&r, "Balance");
    assert_eq!((unseen["score"].as_f64(), unseen["exposure"].as_u64()), (Some(0.5), Some(0)));

    // Formula 2: Drive for results = 0.5 + Σ wᵢ(sᵢ − 0.5) / Σ|wᵢ| (results +0.6, challenge +0.3,
    // mastery +0.3, balance −0.2).
    let drive = competency(&r, "Drive for results");
    assert_eq!(drive["competencyId"], json!(DRIVE));
    let want = 0.5 + (0.6 * (1.0 / 3.0 - 0.5) + 0.3 * (2.0 / 3.0 - 0.5)) / 1.4;
    let got = drive["score"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    assert_eq!(drive["band"], json!(band(want)));
    let coaching = competency(&r, "Coaching others");
    let want_coaching = 0.5 + (0.2 * (2.0 / 3.0 - 0.5)) / (0.7 + 0.2 + 0.2);
    assert!((coaching["score"].as_f64().unwrap() - want_coaching).abs() < 1e-9);
    let neutral = competency(&r, "Innovation");
    assert_eq!((neutral["score"].as_f64(), neutral["band"].as_str()), (Some(0.5), Some("some")));

    // Formula 4: a profile of Drive (1.0) and Coaching (0.5) matches at the weighted mean.
    let pr = profile(app, &org, "Lead", &[(DRIVE, 1.0), (COACHING, 0.5)]);
    let m = app.get(&format!("/api/v1/persons/{id}/matches"), &org.key);
    assert_eq!(m.status, 200, "{}", m.text);
    let item = &m.json["data"][0];
    let pct = (100.0 * (1.0 * want + 0.5 * want_coaching) / 1.5).round() as u64;
    assert_eq!(item["percentage"], json!(pct));
    assert_eq!(item["category"], json!(category(pct)));
    assert_eq!(item["profileId"], pr["id"]);

    // Invalid bodies: D37 field paths; nothing is completed.
    let path = format!("/admin/v1/persons/{id}/assessments");
    let bad = app.admin(
        "POST",
        &path,
        Some(&json!({"complete": true, "responses": [
            {"shown": ["mastery", "results"], "chosen": "mastery"},
            {"shown": ["mastery", "nope"], "chosen": "mastery"},
            {"shown": ["mastery", "results"], "chosen": "balance"}]})),
    );
    bad.assert_error(400, "validation_error");
    assert_eq!(field_paths(&bad), vec!["responses[1]", "responses[2]"]);
    let one = json!([{"shown": ["mastery", "results"], "chosen": "mastery"}]);
    let both = app.admin("POST", &path, Some(&json!({"complete": true, "seed": 1, "responses": one})));
    both.assert_error(400, "validation_error");
    assert_eq!(field_paths(&both), vec!["seed"]);
    let not_complete = app.admin("POST", &path, Some(&json!({"complete": false, "seed": 3})));
    not_complete.assert_error(400, "validation_error");
    assert_eq!(field_paths(&not_complete), vec!["complete"]);
    let unknown = app.admin("POST", &path, Some(&json!({"complete": true, "extra": 1})));
    unknown.assert_error(400, "validation_error");
    assert_eq!(results(app, &org, &id)["totals"], json!({"assessments": 1, "responses": 1}), "nothing written");
    let missing = app.admin(
        "POST",
        &format!("/admin/v1/persons/{}/assessments", uuid::Uuid::new_v4()),
        Some(&json!({"complete": true})),
    );
    missing.assert_error(404, "not_found");
});

crate::e2e!(
    scores_exactly_on_a_boundary_take_the_upper_band_and_half_percentages_round_up,
    Default::default(),
    |app| {
        // docs/scoring.md: "exactly 0.65 is high, 0.55 is moderate, 0.45 is some" (D2); the match
        // percentage is round(100 · ...) (D3). By hand: Drive for results = 0.45 (results 1/3,
        // challenge 1/3, mastery 3/5, balance 1/4); Innovation = 0.325 (creativity 1/4,
        // independence 2/3, structure 4/5), so an Innovation-only profile matches at 33.
        let org = app.org("business", "active");
        let r = |a: &str, b: &str, c: &str| json!({"shown": [a, b], "chosen": c});
        let drive = person(app, &org, "drive@example.com", None);
        assess(
            app,
            &drive,
            json!({"complete": true, "responses": [
            r("mastery", "results", "mastery"), r("mastery", "challenge", "mastery"),
            r("mastery", "helping", "helping"), r("balance", "helping", "helping"),
            r("balance", "harmony", "harmony")]}),
        );
        let res = results(app, &org, &drive);
        let c = competency(&res, "Drive for results");
        assert_eq!(c["score"], json!(0.45), "{c}");
        assert_eq!(c["band"], "some", "D2: exactly 0.45 is some");

        let quality = person(app, &org, "quality@example.com", None);
        // Quality focus = 0.5 + 0.7·(5/7 − 0.5) = 0.65 exactly: precision chosen 4 of 5.
        let mut responses: Vec<Value> = (0..4).map(|_| r("precision", "balance", "precision")).collect();
        responses.push(r("precision", "balance", "balance"));
        assess(app, &quality, json!({"complete": true, "responses": responses}));
        let res = results(app, &org, &quality);
        let c = competency(&res, "Quality focus");
        assert_eq!(c["score"], json!(0.65), "{c}");
        assert_eq!(c["band"], "high", "D2: exactly 0.65 is high");

        // Just below: Accountability = 0.5 + (0.6·(6/7 − 0.5) + 0.3·(1/3 − 0.5)) / 1.1 = 0.6493… is
        // moderate (half-open intervals).
        let below = person(app, &org, "below@example.com", None);
        let mut responses: Vec<Value> = (0..5).map(|_| r("ownership", "helping", "ownership")).collect();
        responses.push(r("results", "helping", "helping"));
        assess(app, &below, json!({"complete": true, "responses": responses}));
        let res = results(app, &org, &below);
        let c = competency(&res, "Accountability");
        let want = 0.5 + (0.6 * (6.0 / 7.0 - 0.5) + 0.3 * (1.0 / 3.0 - 0.5)) / 1.1;
        assert!((c["score"].as_f64().unwrap() - want).abs() < 1e-9 && want < 0.65, "{c}");
        assert_eq!(c["band"], "moderate", "D2: [0.55, 0.65) is moderate");

        let inventor = person(app, &org, "inventor@example.com", None);
        assess(
            app,
            &inventor,
            json!({"complete": true, "responses": [
            r("structure", "creativity", "structure"), r("structure", "creativity", "structure"),
            r("structure", "helping", "structure"), r("independence", "helping", "independence")]}),
        );
        let res = results(app, &org, &inventor);
        assert_eq!(competency(&res, "Innovation")["score"], json!(0.325));
        profile(app, &org, "Inventor", &[(INNOVATION, 1.0)]);
        let m = app.get(&format!("/api/v1/persons/{inventor}/matches"), &org.key);
        assert_eq!(m.status, 200, "{}", m.text);
        assert_eq!((&m.json["data"][0]["percentage"], &m.json["data"][0]["category"]), (&json!(33), &json!("low")));
    }
);

// ---------------------------------------------------------------------------------------------
// Consent (spec concept 3; D10, D11, D27)
// ---------------------------------------------------------------------------------------------

crate::e2e!(an_organization_never_sees_assessments_completed_before_the_person_joined, Default::default(), |app| {
    let a = app.org("business", "active");
    let b = app.org("professional", "active");
    let pa = person(app, &a, "ada@example.com", Some("Lovelace"));
    complete(app, &pa, 1);
    let pb = person(app, &b, "Ada@Example.com", Some("Lovelace"));
    assert_ne!(pa, pb, "D10: a different id in each organization");
    profile(app, &b, "Any", &[(INNOVATION, 1.0)]);

    let rb = results(app, &b, &pb);
    assert_eq!(rb["hasResults"], json!(false));
    assert_eq!(rb["totals"], Value::Null);
    assert_eq!(rb["competencies"], Value::Null);
    let p = get_person(app, &b, &pb);
    assert_eq!(p["assessment"], json!({"status": "not_started", "completedAt": null, "count": 0}));
    assert_eq!(p["sharedExistingProfile"], json!(false));
    let report = app.get(&format!("/api/v1/persons/{pb}/report"), &b.key);
    report.assert_error(404, "not_found");
    assert_eq!(report.json["details"], json!({"reason": "no_results"}));
    let matches = app.get(&format!("/api/v1/persons/{pb}/matches"), &b.key);
    matches.assert_error(404, "not_found");
    assert_eq!(matches.json["details"], json!({"reason": "no_results"}));
    assert_no_competency_scores(&matches);

    // The persons list filters on the visible status too (D11).
    let listed = app.get("/api/v1/persons?assessmentStatus=completed", &b.key);
    assert_eq!(listed.status, 200, "{}", listed.text);
    assert_eq!(listed.json["data"], json!([]), "B has no completed person");
    let listed = app.get("/api/v1/persons?assessmentStatus=not_started", &b.key);
    assert_eq!(listed.json["data"][0]["id"], json!(pb));

    // A keeps seeing its own.
    assert_eq!(results(app, &a, &pa)["totals"], json!({"assessments": 1, "responses": 48}));
    assert_eq!(get_person(app, &a, &pa)["assessment"]["status"], "completed");

    // An assessment taken for B is B's (D51 (a)); A, which only imported the address, does not
    // see it (D51), and B sees only that one.
    complete(app, &pb, 2);
    let rb = results(app, &b, &pb);
    assert_full_results(&rb, &pb);
    assert_eq!(rb["totals"], json!({"assessments": 1, "responses": 48}));
    assert_eq!(results(app, &a, &pa)["totals"], json!({"assessments": 1, "responses": 48}));
    assert_eq!(get_person(app, &b, &pb)["assessment"]["count"], json!(1));
    assert_eq!(get_person(app, &a, &pa)["assessment"]["count"], json!(1));
    let report = app.get(&format!("/api/v1/persons/{pb}/report"), &b.key);
    assert_eq!(report.status, 200);
    // Ids do not cross organizations (D28).
    app.get(&format!("/api/v1/persons/{pa}/results"), &b.key).assert_error(404, "not_found");
    app.get(&format!("/api/v1/persons/{pb}/results"), &a.key).assert_error(404, "not_found");
});

// ---------------------------------------------------------------------------------------------
// Profiles (D5, D25, D36, D39)
// ---------------------------------------------------------------------------------------------

crate::e2e!(profiles_created_by_the_admin_are_read_through_the_api, Default::default(), |app| {
    let org = app.org("business", "active");
    let other = app.org("business", "active");
    let r = create_profile(
        app,
        &org,
        &json!({"name": "Engineer", "description": "Builds things",
                "competencies": [{"competencyId": DRIVE, "weight": 0.8}, {"competencyId": QUALITY, "weight": 0.25}]}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let p = r.json.clone();
    assert_eq!(keys(&p), set(&["id", "name", "description", "competencies", "createdAt", "updatedAt"]));
    assert!(uuid::Uuid::parse_str(p["id"].as_str().unwrap()).is_ok());
    assert_eq!(p["name"], "Engineer");
    assert_eq!(p["description"], "Builds things");
    assert_eq!(
        p["competencies"],
        json!([{"competencyId": DRIVE, "name": "Drive for results", "weight": 0.8},
               {"competencyId": QUALITY, "name": "Quality focus", "weight": 0.25}])
    );
    for c in p["competencies"].as_array().unwrap() {
        assert_eq!(keys(c), set(&["competencyId", "name", "weight"]));
    }
    assert_eq!(p["createdAt"], p["updatedAt"]);
    assert!(p["createdAt"].as_str().unwrap().ends_with('Z'));

    let id = p["id"].as_str().unwrap();
    let g = app.get(&format!("/api/v1/profiles/{id}"), &org.key);
    assert_eq!(g.status, 200, "{}", g.text);
    assert_eq!(g.json, p, "read back as created");
    app.get(&format!("/api/v1/profiles/{id}"), &other.key).assert_error(404, "not_found");
    app.get("/api/v1/profiles/not-a-uuid", &org.key).assert_error(404, "not_found");
    app.get(&format!("/api/v1/profiles/{}", uuid::Uuid::new_v4()), &org.key).assert_error(404, "not_found");

    // More profiles; the list is newest first and pages without gaps (D36).
    let mut made = vec![p["id"].as_str().unwrap().to_string()];
    for i in 0..4 {
        made.push(profile(app, &org, &format!("Role {i}"), &[(INNOVATION, 1.0)])["id"].as_str().unwrap().to_string());
    }
    profile(app, &other, "Theirs", &[(INNOVATION, 1.0)]);
    let all = app.get("/api/v1/profiles", &org.key);
    assert_eq!(all.status, 200, "{}", all.text);
    assert_eq!(keys(&all.json), set(&["data", "pagination"]));
    assert_eq!(all.json["pagination"], json!({"hasMore": false, "nextCursor": null}));
    let listed: Vec<&str> = all.json["data"].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap()).collect();
    let newest_first: Vec<&str> = made.iter().rev().map(|s| s.as_str()).collect();
    assert_eq!(listed, newest_first);
    assert_eq!(all.json["data"][4], p, "list items are whole profiles");
    let mut walked = Vec::new();
    let mut path = "/api/v1/profiles?limit=2".to_string();
    let mut pages = 0;
    loop {
        let page = app.get(&path, &org.key);
        assert_eq!(page.status, 200, "{}", page.text);
        pages += 1;
        let items = page.json["data"].as_array().unwrap();
        assert!(items.len() <= 2);
        walked.extend(items.iter().map(|x| x["id"].as_str().unwrap().to_string()));
        if page.json["pagination"]["hasMore"] == json!(false) {
            assert_eq!(page.json["pagination"]["nextCursor"], Value::Null);
            break;
        }
        let c = page.json["pagination"]["nextCursor"].as_str().unwrap();
        path = format!("/api/v1/profiles?limit=2&cursor={c}");
    }
    assert_eq!((walked.iter().map(|s| s.as_str()).collect::<Vec<_>>(), pages), (newest_first, 3));
    app.get("/api/v1/profiles?cursor=AAAA", &org.key).assert_error(400, "validation_error");
    app.get("/api/v1/profiles?limit=0", &org.key).assert_error(400, "validation_error");
    app.get("/api/v1/profiles?limit=101", &org.key).assert_error(400, "validation_error");

    // usage.profiles.used counts the organization's own.
    let o = app.get("/api/v1/organization", &org.key);
    assert_eq!(o.json["usage"]["profiles"], json!({"used": 5, "limit": 250}));
    let o = app.get("/api/v1/organization", &other.key);
    assert_eq!(o.json["usage"]["profiles"]["used"], json!(1));

    // Invalid profiles: D37 field paths.
    let unknown = uuid::Uuid::new_v4().to_string();
    for (body, want) in [
        (
            json!({"name": "X", "competencies": [{"competencyId": unknown, "weight": 1.0}]}),
            "competencies[0].competencyId",
        ),
        (
            json!({"name": "X", "competencies": [{"competencyId": "nope", "weight": 1.0}]}),
            "competencies[0].competencyId",
        ),
        (
            json!({"name": "X", "competencies": [{"competencyId": DRIVE, "weight": 1.0},
                                                 {"competencyId": DRIVE, "weight": 0.5}]}),
            "competencies[1].competencyId",
        ),
        (json!({"name": "X", "competencies": [{"competencyId": DRIVE, "weight": 1.5}]}), "competencies[0].weight"),
        (json!({"name": "X", "competencies": [{"competencyId": DRIVE, "weight": 0}]}), "competencies"),
        (json!({"name": "", "competencies": [{"competencyId": DRIVE, "weight": 1}]}), "name"),
    ] {
        let r = create_profile(app, &org, &body);
        r.assert_error(400, "validation_error");
        assert_eq!(field_paths(&r), vec![want], "{body}");
    }
    create_profile(app, &org, &json!({"name": "X", "competencies": [], "extra": true}))
        .assert_error(400, "validation_error");
    let ghost = Org { id: uuid::Uuid::new_v4().to_string(), ..org.clone() };
    create_profile(app, &ghost, &json!({"name": "X", "competencies": [{"competencyId": DRIVE, "weight": 1}]}))
        .assert_error(404, "not_found");
    assert_eq!(app.get("/api/v1/organization", &org.key).json["usage"]["profiles"]["used"], json!(5));
});

crate::e2e!(each_plan_refuses_the_profile_after_its_limit, Default::default(), |app| {
    // D5: professional 25 profiles, starter 3; the limit is a 409 conflict.
    let org = app.org("professional", "active");
    for i in 0..25 {
        profile(app, &org, &format!("Role {i}"), &[(ADAPTABILITY, 1.0)]);
    }
    let r = create_profile(
        app,
        &org,
        &json!({"name": "One too many", "competencies": [{"competencyId": ADAPTABILITY, "weight": 1}]}),
    );
    r.assert_error(409, "conflict");
    assert_eq!(r.json["details"], json!({"used": 25, "limit": 25, "plan": "professional"}));
    let o = app.get("/api/v1/organization", &org.key);
    assert_eq!(o.json["usage"]["profiles"], json!({"used": 25, "limit": 25}));
    let all = app.get("/api/v1/profiles?limit=100", &org.key);
    assert_eq!(all.json["data"].as_array().unwrap().len(), 25);
    // Starter: 3 profiles (D5), counted per organization.
    let starter = app.admin(
        "POST",
        "/admin/v1/organizations",
        Some(&json!({"companyName": "Small", "email": "hr@small.example", "plan": "starter"})),
    );
    assert_eq!(starter.status, 201, "{}", starter.text);
    let path = format!("/admin/v1/organizations/{}/profiles", starter.json["id"].as_str().unwrap());
    let body = json!({"name": "R", "competencies": [{"competencyId": ADAPTABILITY, "weight": 1}]});
    for _ in 0..3 {
        assert_eq!(app.admin("POST", &path, Some(&body)).status, 201);
    }
    let r = app.admin("POST", &path, Some(&body));
    r.assert_error(409, "conflict");
    assert_eq!(r.json["details"], json!({"used": 3, "limit": 3, "plan": "starter"}));
});

// ---------------------------------------------------------------------------------------------
// Matches (spec concept 4; D3, D26, D36)
// ---------------------------------------------------------------------------------------------

crate::e2e!(person_matches_show_only_a_percentage_and_a_category_per_profile, Default::default(), |app| {
    let org = app.org("business", "active");
    let id = person(app, &org, "ada@example.com", None);
    complete(app, &id, 7);
    let shapes: Vec<Vec<(&str, f64)>> = vec![
        vec![(DRIVE, 1.0)],
        vec![(COACHING, 0.7), (QUALITY, 0.3)],
        vec![(INNOVATION, 0.2), (ADAPTABILITY, 0.9), (DRIVE, 0.0)],
    ];
    let r = results(app, &org, &id);
    let mut expected = std::collections::BTreeMap::new();
    for (i, s) in shapes.iter().enumerate() {
        let p = profile(app, &org, &format!("P{i}"), s);
        // Formula 4 from the person's own (per-person) scores.
        let num: f64 = s.iter().map(|(c, w)| w * competency_by_id(&r, c)).sum();
        let den: f64 = s.iter().map(|(_, w)| w).sum();
        expected.insert(p["id"].as_str().unwrap().to_string(), (100.0 * num / den).round() as u64);
    }
    let m = app.get(&format!("/api/v1/persons/{id}/matches"), &org.key);
    assert_eq!(m.status, 200, "{}", m.text);
    assert_no_competency_scores(&m);
    assert_eq!(keys(&m.json), set(&["data", "pagination"]));
    assert_eq!(m.json["pagination"], json!({"hasMore": false, "nextCursor": null}));
    let items = m.json["data"].as_array().unwrap();
    assert_eq!(items.len(), 3, "one item per profile");
    for it in items {
        assert_match_item(it);
        assert_eq!(it["personId"], json!(id));
        assert_eq!(it["percentage"], json!(expected[it["profileId"].as_str().unwrap()]), "{it}");
    }
    let pcts: Vec<u64> = items.iter().map(|x| x["percentage"].as_u64().unwrap()).collect();
    assert!(pcts.windows(2).all(|w| w[0] >= w[1]), "highest first: {pcts:?}");
    // Unknown query parameters are refused (D37), ids outside the organization are 404 (D28).
    app.get(&format!("/api/v1/persons/{id}/matches?limit=5"), &org.key).assert_error(400, "validation_error");
    let other = app.org("business", "active");
    app.get(&format!("/api/v1/persons/{id}/matches"), &other.key).assert_error(404, "not_found");
});

fn competency_by_id(results: &Value, id: &str) -> f64 {
    results["competencies"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["competencyId"] == id)
        .and_then(|c| c["score"].as_f64())
        .unwrap_or_else(|| panic!("competency {id}"))
}

crate::e2e!(profile_matches_rank_persons_with_results_and_page_without_gaps, Default::default(), |app| {
    let org = app.org("business", "active");
    let pr = profile(app, &org, "Lead", &[(DRIVE, 0.6), (COACHING, 0.4)]);
    let pid = pr["id"].as_str().unwrap().to_string();
    // Seeds with repeats, so some percentages tie.
    let mut with_results = Vec::new();
    for (i, seed) in [1u64, 2, 2, 3, 4, 5, 5].iter().enumerate() {
        let id = person(app, &org, &format!("p{i}@example.com"), None);
        complete(app, &id, *seed);
        with_results.push(id);
    }
    let without = person(app, &org, "none@example.com", None);
    assess(app, &without, json!({"complete": false}));
    let archived = person(app, &org, "gone@example.com", None);
    complete(app, &archived, 1);
    assert_eq!(app.delete(&format!("/api/v1/persons/{archived}"), &org.key).status, 200);

    let base = format!("/api/v1/profiles/{pid}/matches");
    let all = app.get(&format!("{base}?limit=100"), &org.key);
    assert_eq!(all.status, 200, "{}", all.text);
    assert_no_competency_scores(&all);
    assert_eq!(all.json["pagination"], json!({"hasMore": false, "nextCursor": null}));
    let items = all.json["data"].as_array().unwrap().clone();
    for it in &items {
        assert_match_item(it);
        assert_eq!(it["profileId"], json!(pid));
        // The same value as the person's own matches endpoint.
        let own = app.get(&format!("/api/v1/persons/{}/matches", it["personId"].as_str().unwrap()), &org.key);
        assert_eq!(own.json["data"][0], *it);
    }
    let listed: BTreeSet<&str> = items.iter().map(|x| x["personId"].as_str().unwrap()).collect();
    assert_eq!(listed, with_results.iter().map(|s| s.as_str()).collect(), "active persons with results only");
    let pcts: Vec<u64> = items.iter().map(|x| x["percentage"].as_u64().unwrap()).collect();
    assert!(pcts.windows(2).all(|w| w[0] >= w[1]), "highest percentage first: {pcts:?}");
    assert!(pcts.iter().collect::<BTreeSet<_>>().len() < pcts.len(), "the data has ties: {pcts:?}");

    // Pages of 2: the same items in the same order, no gaps, no duplicates (D36).
    let mut walked: Vec<Value> = Vec::new();
    let mut path = format!("{base}?limit=2");
    let mut pages = 0;
    let mut a_cursor = None;
    loop {
        let page = app.get(&path, &org.key);
        assert_eq!(page.status, 200, "{}", page.text);
        assert_no_competency_scores(&page);
        pages += 1;
        let data = page.json["data"].as_array().unwrap();
        assert!(data.len() <= 2);
        walked.extend(data.iter().cloned());
        if page.json["pagination"]["hasMore"] == json!(false) {
            break;
        }
        assert_eq!(data.len(), 2, "a page with more after it is full");
        let c = page.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
        path = format!("{base}?limit=2&cursor={c}");
        a_cursor.get_or_insert(c);
    }
    assert_eq!(walked, items);
    assert_eq!(pages, 4, "7 persons in pages of 2");

    // The personId filter (D26).
    let one = app.get(&format!("{base}?personId={}", with_results[3]), &org.key);
    assert_eq!(one.status, 200, "{}", one.text);
    assert_eq!(one.json["data"].as_array().unwrap().len(), 1);
    assert_eq!(one.json["data"][0]["personId"], json!(with_results[3]));
    for absent in [&without, &archived] {
        let r = app.get(&format!("{base}?personId={absent}"), &org.key);
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["data"], json!([]), "no results, no match");
    }
    app.get(&format!("{base}?personId=nope"), &org.key).assert_error(400, "validation_error");

    // Cursors are tamper-evident and bound to their filters (D36).
    let c = a_cursor.expect("a second page exists");
    let mut bytes = c.clone().into_bytes();
    bytes[2] = if bytes[2] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    app.get(&format!("{base}?limit=2&cursor={tampered}"), &org.key).assert_error(400, "validation_error");
    app.get(&format!("{base}?cursor=not-a-cursor"), &org.key).assert_error(400, "validation_error");
    app.get(&format!("{base}?limit=2&cursor={c}&personId={}", with_results[0]), &org.key)
        .assert_error(400, "validation_error");
    app.get(&format!("{base}?limit=0"), &org.key).assert_error(400, "validation_error");
    app.get(&format!("{base}?sort=asc"), &org.key).assert_error(400, "validation_error");

    // Another organization's profile, and unknown ids: 404.
    let other = app.org("business", "active");
    app.get(&base, &other.key).assert_error(404, "not_found");
    app.get("/api/v1/profiles/not-a-uuid/matches", &org.key).assert_error(404, "not_found");
    app.get(&format!("/api/v1/profiles/{}/matches", uuid::Uuid::new_v4()), &org.key).assert_error(404, "not_found");
});

// ---------------------------------------------------------------------------------------------
// Reports (D27)
// ---------------------------------------------------------------------------------------------

crate::e2e!(the_report_is_a_pdf_naming_the_person, Default::default(), |app| {
    let org = app.org("business", "active");
    let id = person(app, &org, "zoe@example.com", Some("Quistgaard"));
    let before = app.get(&format!("/api/v1/persons/{id}/report"), &org.key);
    before.assert_error(404, "not_found");
    assert_eq!(before.json["details"], json!({"reason": "no_results"}));
    complete(app, &id, 11);

    let url = format!("{}/api/v1/persons/{id}/report", app.base);
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut resp = agent.get(&url).header("Authorization", format!("Bearer {}", org.key)).call().unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let ct = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    assert_eq!(ct, "application/pdf");
    let bytes = resp.body_mut().read_to_vec().unwrap();
    assert!(bytes.starts_with(b"%PDF"), "starts with %PDF");
    let doc = lopdf::Document::load_mem(&bytes).expect("the report parses as a PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    assert!(!pages.is_empty());
    let text = doc.extract_text(&pages).unwrap();
    assert!(text.contains("Quistgaard"), "the person's last name in {text}");

    // Archived persons keep their report (D28: data retained).
    assert_eq!(app.delete(&format!("/api/v1/persons/{id}"), &org.key).status, 200);
    assert_eq!(app.get(&format!("/api/v1/persons/{id}/report"), &org.key).status, 200);
    assert_eq!(results(app, &org, &id)["hasResults"], json!(true));
});

// ---------------------------------------------------------------------------------------------
// Scopes and organizations (spec Authentication 7; D25-D28)
// ---------------------------------------------------------------------------------------------

crate::e2e!(scopes_and_organization_boundaries_guard_results_profiles_matches_and_reports, Default::default(), |app| {
    let org = app.org("business", "active");
    let id = person(app, &org, "ada@example.com", Some("Lovelace"));
    complete(app, &id, 1);
    let pr = profile(app, &org, "Lead", &[(DRIVE, 1.0)]);
    let pid = pr["id"].as_str().unwrap();
    let results_paths = [
        format!("/api/v1/persons/{id}/results"),
        format!("/api/v1/persons/{id}/matches"),
        format!("/api/v1/persons/{id}/report"),
        format!("/api/v1/profiles/{pid}/matches"),
    ];
    let profile_paths = ["/api/v1/profiles".to_string(), format!("/api/v1/profiles/{pid}")];

    // persons:read only: results:read is needed for results, matches and reports.
    let (persons_only, _) = app.key(&org.user_id, &["persons:read"]);
    for p in &results_paths {
        let r = app.get(p, &persons_only);
        r.assert_error(403, "insufficient_scope");
        assert!(!r.text.contains("Lovelace") && !r.text.contains("score"), "{}", r.text);
    }
    // results:read without profiles:read: profiles are refused, results work.
    let (no_profiles, _) = app.key(&org.user_id, &["persons:read", "results:read"]);
    for p in &profile_paths {
        app.get(p, &no_profiles).assert_error(403, "insufficient_scope");
    }
    for p in &results_paths {
        assert_eq!(app.get(p, &no_profiles).status, 200, "{p}");
    }
    // profiles:read alone reads profiles, not matches.
    let (profiles_only, _) = app.key(&org.user_id, &["profiles:read"]);
    for p in &profile_paths {
        assert_eq!(app.get(p, &profiles_only).status, 200, "{p}");
    }
    app.get(&results_paths[3], &profiles_only).assert_error(403, "insufficient_scope");

    // Another organization: every id is unknown there (D28).
    let other = app.org("business", "active");
    for p in results_paths.iter().chain(profile_paths[1..].iter()) {
        app.get(p, &other.key).assert_error(404, "not_found");
    }
    // Not UUIDs: 404 like any unknown id.
    for p in [
        "/api/v1/persons/123/results",
        "/api/v1/persons/123/matches",
        "/api/v1/persons/123/report",
        "/api/v1/profiles/123",
        "/api/v1/profiles/123/matches",
    ] {
        app.get(p, &org.key).assert_error(404, "not_found");
    }
    // Read-only endpoints: other methods are 405 (D37).
    let r = app.send("POST", &results_paths[0], &org.key, &json!({}));
    r.assert_error(405, "method_not_allowed");
    // Without a key: 401.
    app.request("GET", &results_paths[0], &[], None).assert_error(401, "unauthorized");
});
