//! The person's language, time zone, accommodations and way out (issue 37; T217-T220), over
//! HTTP against the real binary on both backends: emails and pages in each shipped locale with
//! dates in the person's time zone, `Accept-Language`, the organization's defaults, the report in
//! Japanese with a Japanese name read back by poppler's pdftotext, accommodations from the
//! invitation to the page, the results, the report and the events, the redirect after
//! accepting, and bad input.

use super::invitations::{
    assert_html, create, emails_to, fields, id, invite, open_page, org, page_path, submit_page, ts,
};
use crate::support::*;
use serde_json::{json, Value};
use talent_domain::assessment::ModelWords;
use talent_domain::ports::Texts;
use talent_domain::values::{Locale, TimeZone};

/// The shipped texts, to write the dates the service must have written (their own format is
/// checked literally by the texts' tests).
fn texts() -> talent_i18n::FluentTexts {
    talent_i18n::FluentTexts::new().expect("the shipped texts")
}

/// Per locale: a time zone, a phrase of the email, a phrase of the page.
const CASES: [(&str, &str, &str, &str); 10] = [
    ("en", "America/New_York", "Open this link to respond:", "Accept the invitation"),
    ("de", "Europe/Berlin", "Über diesen Link können Sie antworten:", "Einladung annehmen"),
    ("fr", "Europe/Paris", "Pour répondre, ouvrez ce lien", "Accepter l’invitation"),
    ("es", "Europe/Madrid", "Para responder, abra este enlace:", "Aceptar la invitación"),
    ("nl", "Europe/Amsterdam", "Open deze link om te reageren:", "Uitnodiging accepteren"),
    ("pt-BR", "America/Sao_Paulo", "Para responder, acesse este link:", "Aceitar o convite"),
    ("it", "Europe/Rome", "Per rispondere, apra questo link:", "Accetta l'invito"),
    ("pl", "Europe/Warsaw", "Aby odpowiedzieć, otwórz ten link:", "Przyjmij zaproszenie"),
    ("ja", "Asia/Tokyo", "以下のリンクからご回答ください", "招待を承諾する"),
    ("zh-Hans", "Asia/Shanghai", "请点击以下链接进行回复", "接受邀请"),
];

/// HTML as the pages escape text.
fn html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

// T217: an invitation in each shipped locale is emailed and shown in it, with its expiry written
// the locale's way in the invitation's time zone; the page says which language it is in.
crate::e2e!(every_shipped_locale_writes_the_email_and_the_page_t217, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let t = texts();
    for (tag, zone, in_email, on_page) in CASES {
        let to = format!("person-{}@example.com", tag.to_ascii_lowercase());
        let inv = invite(app, &o.key, json!({"email": to, "sendEmail": true, "locale": tag, "timeZone": zone}));
        assert_eq!((inv["locale"].as_str(), inv["timeZone"].as_str()), (Some(tag), Some(zone)));
        let locale = Locale::parse(tag).unwrap();
        let expiry = t.date_time(locale, &TimeZone::parse(zone).unwrap(), ts(&inv["expiresAt"]));
        let mails = emails_to(app, &to);
        assert_eq!(mails.len(), 1, "{tag}: {mails:?}");
        let body = mails[0]["body"].as_str().unwrap();
        assert!(body.contains(in_email), "{tag}: {body}");
        assert!(body.contains(&expiry), "{tag}: the expiry {expiry:?} in {body}");
        assert!(mails[0]["subject"].as_str().unwrap().contains("Acme"), "{tag}: {}", mails[0]["subject"]);

        let page = open_page(app, &inv);
        assert_html(&page, 200);
        assert!(page.text.contains(&format!("<html lang=\"{tag}\">")), "{tag}: {}", &page.text[..200]);
        assert_eq!(page.header("content-language"), Some(tag));
        assert!(page.text.contains(&html(on_page)), "{tag}: {}", page.text);
        assert!(page.text.contains(&html(&expiry)), "{tag}: the expiry {expiry:?} on the page");
    }
});

// T217: without an invitation locale the page follows Accept-Language, then the organization's
// default; a header of any shape never fails the page.
crate::e2e!(pages_follow_accept_language_then_the_organizations_default_t217, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let inv = invite(app, &o.key, json!({"email": "max@example.com", "sendEmail": false}));
    assert_eq!(inv["locale"], Value::Null);
    let path = page_path(app, &inv);
    let de = app.request("GET", &path, &[("Accept-Language", "de-DE,de;q=0.9,en;q=0.8")], None);
    assert_html(&de, 200);
    assert!(de.text.contains("Einladung annehmen"), "{}", de.text);
    assert_eq!(de.header("content-language"), Some("de"));
    assert!(de.header("vary").is_some_and(|v| v.contains("Accept-Language")), "{:?}", de.headers);
    for junk in ["", "*", "xx-YY", ";;;,,,q=", "de;q=2", "dé-ÿ;q=0.5", &"a,".repeat(4000)] {
        let r = app.request("GET", &path, &[("Accept-Language", junk)], None);
        assert_html(&r, 200);
        assert!(r.text.contains("Accept the invitation"), "{junk:?}: English by default");
    }
    let r = app.admin("PATCH", &format!("/admin/v1/organizations/{}", o.id), Some(&json!({"locale": "fr"})));
    assert_eq!((r.status, &r.json["locale"]), (200, &json!("fr")), "{}", r.text);
    assert!(open_page(app, &inv).text.contains(&html("Accepter l’invitation")), "the organization's default");
    let ja = app.request("GET", &path, &[("Accept-Language", "ja")], None);
    assert!(ja.text.contains("招待を承諾する"), "the reader's language before the organization's");
    // A link that is not valid answers in the reader's language too.
    let gone = app.request("GET", "/i/not-a-token", &[("Accept-Language", "pl")], None);
    assert_html(&gone, 404);
    assert!(gone.text.contains("lang=\"pl\""), "{}", gone.text);
});

// T217-T219: bad locale, time zone, accommodations or redirect URL: 400 naming the field, nothing
// created; the organization's settings are checked the same way.
crate::e2e!(bad_candidate_members_are_named_and_nothing_is_created_t217, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let cases = [
        (json!({"locale": "tlh"}), "locale"),
        (json!({"locale": "zh-TW"}), "locale"),
        (json!({"locale": 7}), "locale"),
        (json!({"timeZone": "Mars/Olympus_Mons"}), "timeZone"),
        (json!({"accommodations": {"extraTimePercent": 30}}), "accommodations.extraTimePercent"),
        (json!({"accommodations": {"extraTimePercent": 50.5}}), "accommodations.extraTimePercent"),
        (json!({"accommodations": {"notes": ""}}), "accommodations.notes"),
        (json!({"accommodations": {"notes": "x".repeat(501)}}), "accommodations.notes"),
        (json!({"accommodations": {"breaks": null}}), "accommodations.breaks"),
        (json!({"accommodations": {"cape": true}}), "accommodations.cape"),
        (json!({"redirectUrl": "http://jobs.example.com/"}), "redirectUrl"),
        (json!({"redirectUrl": "https://jobs.example.com/"}), "redirectUrl"),
        (json!({"redirectUrl": "https://user:pw@jobs.example.com/"}), "redirectUrl"),
    ];
    for (extra, field) in cases {
        let mut body = json!({"email": "bad@example.com", "sendEmail": false});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let r = create(app, &o.key, body.clone());
        assert_eq!(fields(&r), vec![field.to_string()], "{body}: {}", r.text);
        let mut nested = json!({"email": "bad@example.com", "invitation": {"create": true, "sendEmail": false}});
        nested["invitation"].as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let r = app.send("POST", "/api/v1/persons", &o.key, &nested);
        assert_eq!(fields(&r), vec![format!("invitation.{field}")], "{nested}: {}", r.text);
    }
    assert_eq!(app.get("/api/v1/invitations", &o.key).json["data"], json!([]), "nothing created");
    assert_eq!(app.get("/api/v1/persons", &o.key).json["data"], json!([]), "nothing imported");
    let path = format!("/admin/v1/organizations/{}", o.id);
    for (body, field) in [
        (json!({"locale": "xx"}), "locale"),
        (json!({"timeZone": "Nowhere"}), "timeZone"),
        (json!({"redirectHosts": ["https://jobs.example.com/"]}), "redirectHosts[0]"),
        (json!({"redirectHosts": ["ok.example.com", "bad host"]}), "redirectHosts[1]"),
    ] {
        let r = app.admin("PATCH", &path, Some(&body));
        assert_eq!(fields(&r), vec![field.to_string()], "{body}: {}", r.text);
    }
    let r = app.admin("PATCH", &path, Some(&json!({"redirectHosts": ["Jobs.Example.COM", "münchen.de"]})));
    assert_eq!(r.json["redirectHosts"], json!(["jobs.example.com", "xn--mnchen-3ya.de"]), "{}", r.text);
});

/// Completes an assessment of the person through the admin API (D39).
fn complete(app: &TestApp, person: &str) {
    let r = app.admin("POST", &format!("/admin/v1/persons/{person}/assessments"), Some(&json!({"complete": true})));
    assert_eq!(r.status, 200, "{}", r.text);
}

/// The report's bytes (`GET /persons/{id}/report{query}`).
fn report(app: &TestApp, key: &str, person: &str, query: &str) -> Vec<u8> {
    let url = format!("{}/api/v1/persons/{person}/report{query}", app.base);
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut resp = agent.get(&url).header("Authorization", format!("Bearer {key}")).call().unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    resp.body_mut().read_to_vec().unwrap()
}

/// The text of a PDF as poppler's pdftotext reads it (not our writer's view of it).
fn pdftotext(pdf: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("talent-report-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils; make test installs it)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(out.stdout).unwrap()
}

// T218, T220: accommodations travel from the invitation to the page, the assessment's events,
// the results and the report; a Japanese report of 山田太郎 reads back as written.
crate::e2e!(accommodations_and_a_japanese_report_round_trip_t218, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let inv = invite(
        app,
        &o.key,
        json!({
            "email": "taro@example.jp", "firstName": "太郎", "lastName": "山田", "sendEmail": true,
            "locale": "ja", "timeZone": "Asia/Tokyo",
            "accommodations": {"extraTimePercent": 25, "screenReader": true, "notes": "拡大文字"},
        }),
    );
    let granted = json!({"extraTimePercent": 25, "breaks": false, "screenReader": true, "notes": "拡大文字"});
    assert_eq!(inv["accommodations"], granted);
    let mail = &emails_to(app, "taro@example.jp")[0];
    assert!(mail["body"].as_str().unwrap().contains("25%"), "{}", mail["body"]);
    let page = open_page(app, &inv);
    assert!(page.text.contains("あなたへの配慮事項"), "the accommodations on the page: {}", page.text);
    assert!(page.text.contains("拡大文字"));
    let done = submit_page(app, &inv, "");
    assert_html(&done, 200);
    let person =
        app.get(&format!("/api/v1/invitations/{}", id(&inv)), &o.key).json["personId"].as_str().unwrap().to_string();
    complete(app, &person);

    let results = app.get(&format!("/api/v1/persons/{person}/results"), &o.key);
    assert_eq!(results.json["accommodations"], granted, "{}", results.text);
    let feed = app.get("/api/v1/events?limit=100", &o.key).json["data"].as_array().unwrap().clone();
    let of =
        |t: &str| feed.iter().find(|e| e["type"] == t).unwrap_or_else(|| panic!("{t} in {feed:?}"))["data"].clone();
    assert_eq!(of("invitation.created")["accommodations"], granted);
    assert_eq!(of("assessment.completed")["accommodations"], granted);

    let text = pdftotext(&report(app, &o.key, &person, ""));
    assert!(text.contains("山田太郎"), "the name as written, family name first: {text}");
    assert!(text.contains("アセスメントレポート"), "the Japanese report (the invitation's language): {text}");
    assert!(text.contains("拡大文字"), "the accommodations printed: {text}");
    // T222: the model's words and the personality text are Japanese too; the API's results and an
    // English report keep the model's English.
    let t = texts();
    let model = talent_domain::assessment::AssessmentModel::builtin().unwrap();
    let (ja, en_words) = (ModelWords::new(&t, Locale::Ja), ModelWords::new(&t, Locale::En));
    let flat: String = text.split_whitespace().collect();
    for c in &model.competencies {
        assert!(flat.contains(&ja.competency(c)), "{} in Japanese in {text}", c.name);
        assert!(!text.contains(&c.name), "no English competency name in {text}");
    }
    assert!(text.contains(&ja.axis(&model.axes[0])), "{text}");
    assert!(text.contains(&t.message(Locale::Ja, "personality-drives", &[])), "the personality in Japanese: {text}");
    let markdown = results.json["personality"]["markdown"].as_str().unwrap();
    assert!(markdown.starts_with("## What drives this person"), "the API's results in English: {markdown}");
    let en = pdftotext(&report(app, &o.key, &person, "?locale=en"));
    assert!(en.contains("Assessment report") && en.contains("山田"), "asked for in English: {en}");
    assert!(
        en.contains(&en_words.competency(&model.competencies[0])) && en.contains("What drives this person"),
        "{en}"
    );
    app.get(&format!("/api/v1/persons/{person}/report?locale=klingon"), &o.key).assert_error(400, "validation_error");
});

// T219: after accepting, a thank-you page in the person's language, with the way on to the
// invitation's redirect URL when it has one.
crate::e2e!(after_accepting_the_person_is_thanked_and_sent_on_t219, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let r = app.admin(
        "PATCH",
        &format!("/admin/v1/organizations/{}", o.id),
        Some(&json!({"redirectHosts": ["careers.acme.example"]})),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let inv = invite(
        app,
        &o.key,
        json!({"email": "ana@example.com", "sendEmail": false, "locale": "es", "redirectUrl": "https://careers.acme.example/gracias?x=1&y=<2>"}),
    );
    assert_eq!(inv["redirectUrl"], "https://careers.acme.example/gracias?x=1&y=%3C2%3E");
    let done = submit_page(app, &inv, "");
    assert_html(&done, 200);
    assert!(done.text.contains("Le damos la bienvenida"), "{}", done.text);
    assert!(done.text.contains("href=\"https://careers.acme.example/gracias?x=1&amp;y=%3C2%3E\""), "{}", done.text);
    assert!(done.text.contains("http-equiv=\"refresh\""), "{}", done.text);
    let plain = invite(app, &o.key, json!({"email": "bo@example.com", "sendEmail": false}));
    let done = submit_page(app, &plain, "");
    assert!(done.text.contains("Welcome") && !done.text.contains("refresh"), "{}", done.text);
});
