//! `crates/client` against the real binary (issue 6): every method of the typed client, the
//! pagination iterators, idempotency flags, API errors, a real 429 waited out, and webhook
//! deliveries to a real receiver verified with `talent_client::webhooks`.

use crate::support::*;
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use talent_client::models::*;
use talent_client::webhooks::{verify, Event, VerifyError};
use talent_client::{Client, Error};
use uuid::Uuid;

/// Runs `f` on a server of each backend.
fn each_backend(opts: Opts, f: impl Fn(&TestApp)) {
    for b in [Backend::Sqlite, Backend::Postgres] {
        if let Some(app) = spawn(b, opts.clone()) {
            f(&app);
        }
    }
}

fn complete(app: &TestApp, person: Uuid, seed: u64) {
    let r = app.admin(
        "POST",
        &format!("/admin/v1/persons/{person}/assessments"),
        Some(&json!({"complete": true, "seed": seed})),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

fn import(email: &str) -> ImportPerson {
    ImportPerson { email: email.into(), ..Default::default() }
}

#[test]
fn the_client_covers_account_persons_results_profiles_and_invitations() {
    each_backend(Opts::default(), |app| {
        let org = app.org("business", "active");
        let api = Client::new(&app.base, &org.key);

        assert_eq!(api.me().unwrap().plan, "business");
        assert_eq!(api.organization().unwrap().id.to_string(), org.id);

        // Import: created, then existing, then a replay of the same key and body.
        let body = ImportPerson { tags: Some(vec!["rust".into()]), ..import("ada@example.com") };
        let first = api.import_person(&body, Some("k-ada")).unwrap();
        assert!(first.created && !first.replayed && first.resource.invitation.is_none());
        let again = api.import_person(&body, None).unwrap();
        assert!(!again.created && !again.replayed);
        let replay = api.import_person(&body, Some("k-ada")).unwrap();
        assert!(replay.created && replay.replayed, "the stored 201 (D38)");
        let ada = first.resource.person.id;
        assert_eq!(again.resource.person.id, ada);

        // A nested invitation, a patch, reads.
        let with_inv = api
            .import_person(
                &ImportPerson { invitation: Some(NestedInvitation::new(false)), ..import("bob@example.com") },
                None,
            )
            .unwrap();
        assert!(with_inv.resource.invitation.as_ref().is_some_and(|i| i.status == "pending"));
        let patched = api
            .patch_person(
                ada,
                &PatchPerson {
                    first_name: Some("Ada".into()),
                    external_id: Some(Some("ats-1".into())),
                    ..Default::default()
                },
            )
            .unwrap();
        assert_eq!((patched.first_name.as_deref(), patched.external_id.as_deref()), (Some("Ada"), Some("ats-1")));
        let cleared = api.patch_person(ada, &PatchPerson { external_id: Some(None), ..Default::default() }).unwrap();
        assert_eq!(cleared.external_id, None);
        assert_eq!(api.get_person(ada).unwrap().email, "ada@example.com");
        let e =
            api.patch_person(ada, &PatchPerson { first_name: Some("Other".into()), ..Default::default() }).unwrap_err();
        assert_eq!((e.status(), e.code()), (Some(409), Some("conflict")), "D13");

        // Pagination: 7 more persons, pages of 3, every person exactly once, newest first.
        for i in 0..7 {
            api.import_person(&import(&format!("p{i}@example.com")), None).unwrap();
        }
        let q = PersonQuery { limit: Some(3), ..Default::default() };
        let page = api.list_persons(&q, None).unwrap();
        assert_eq!(page.data.len(), 3);
        assert!(page.pagination.has_more);
        let second = api.list_persons(&q, page.pagination.next_cursor.as_deref()).unwrap();
        assert_ne!(second.data[0].id, page.data[0].id);
        let all: Vec<Person> = api.persons(q.clone()).collect::<Result<_, _>>().unwrap();
        assert_eq!(all.len(), 9);
        let mut ids: Vec<Uuid> = all.iter().map(|p| p.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), 9);
        let tagged: Vec<Person> = api
            .persons(PersonQuery { tag: Some("RUST".into()), ..Default::default() })
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(tagged.iter().map(|p| p.id).collect::<Vec<_>>(), vec![ada]);

        // Results, report, profiles and matches.
        assert!(!api.person_results(ada).unwrap().has_results);
        let e = api.person_report(ada).unwrap_err();
        assert_eq!(e.code(), Some("not_found"));
        complete(app, ada, 3);
        let results = api.person_results(ada).unwrap();
        assert!(results.has_results);
        let competency = results.competencies.as_ref().unwrap().scores[0].competency_id;
        assert!(api.person_report(ada).unwrap().starts_with(b"%PDF"));
        for name in ["Engineer", "Analyst"] {
            let r = app.admin(
                "POST",
                &format!("/admin/v1/organizations/{}/profiles", org.id),
                Some(&json!({"name": name, "description": "x", "competencies": [{"competencyId": competency, "weight": 1.0}]})),
            );
            assert_eq!(r.status, 201, "{}", r.text);
        }
        let profiles: Vec<Profile> = api.profiles(Some(1)).collect::<Result<_, _>>().unwrap();
        assert_eq!(profiles.len(), 2);
        assert_eq!(api.list_profiles(Some(1), None).unwrap().data.len(), 1);
        let pid = profiles[0].id;
        assert_eq!(api.get_profile(pid).unwrap().name, profiles[0].name);
        assert_eq!(api.person_matches(ada).unwrap().len(), 2);
        let matches: Vec<Match> = api.profile_matches(pid, MatchQuery::default()).collect::<Result<_, _>>().unwrap();
        assert_eq!(matches.iter().map(|m| m.person_id).collect::<Vec<_>>(), vec![ada]);
        let only = api.list_profile_matches(pid, &MatchQuery { person_id: Some(ada), limit: Some(1) }, None).unwrap();
        assert_eq!(only.data.len(), 1);

        // Invitations: create, the pending one again, read, list, resend, revoke, revoke again.
        let create = CreateInvitation {
            email: "cy@example.com".into(),
            message: Some("Hi".into()),
            locale: Some("pt-PT".into()),
            time_zone: Some("america/sao_paulo".into()),
            accommodations: Some(Accommodations { extra_time_percent: 50, breaks: true, ..Default::default() }),
            ..Default::default()
        };
        let inv = api.create_invitation(&create, None).unwrap();
        assert!(inv.created);
        // T217, T218: the person's side of the invitation, as resolved.
        assert_eq!(inv.resource.locale.as_deref(), Some("pt-BR"));
        assert_eq!(inv.resource.time_zone.as_deref(), Some("America/Sao_Paulo"));
        assert_eq!(inv.resource.accommodations.as_ref().map(|a| (a.extra_time_percent, a.breaks)), Some((50, true)));
        let same = api.create_invitation(&create, None).unwrap();
        assert!(!same.created, "the pending invitation, X-Existing-Resource (D18)");
        let id = inv.resource.id;
        assert_eq!(api.get_invitation(id).unwrap().message.as_deref(), Some("Hi"));
        let listed: Vec<Invitation> = api
            .invitations(InvitationQuery { status: Some("pending".into()), limit: Some(1), ..Default::default() })
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(listed.len(), 2, "cy and the nested one of bob");
        assert_eq!(api.list_invitations(&InvitationQuery::default(), None).unwrap().data.len(), 2);
        assert_eq!(api.resend_invitation(id, Some(30), None).unwrap().status, "pending");
        app.sent_emails("cy@example.com");
        assert!(api.get_invitation(id).unwrap().email_sent_at.is_some(), "sent by the email job");
        assert_eq!(api.revoke_invitation(id, None).unwrap().status, "revoked");
        assert_eq!(api.revoke_invitation(id, None).unwrap_err().code(), Some("conflict"));

        // Archive; errors carry the envelope.
        assert_eq!(api.archive_person(ada).unwrap().status, "archived");
        let e = api.get_person(Uuid::nil()).unwrap_err();
        assert!(matches!(e, Error::Api { status: 404, .. }), "{e:?}");
        let e = api.import_person(&import("not-an-email"), None).unwrap_err();
        let Error::Api { code, details, .. } = e else { panic!() };
        assert_eq!(code, "validation_error");
        assert_eq!(details.unwrap()["fields"][0]["field"], "email");
    });
}

/// What the receiver got: (lower-case headers, body) of every request.
type Hits = Arc<Mutex<Vec<(Vec<(String, String)>, Vec<u8>)>>>;

/// A receiver on loopback: answers 200 and keeps every request.
fn receiver() -> (String, Hits) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hooks", l.local_addr().unwrap());
    let hits = Arc::new(Mutex::new(Vec::new()));
    let log = hits.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { return };
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut line = String::new();
            if r.read_line(&mut line).is_err() {
                continue;
            }
            let (mut headers, mut len) = (Vec::new(), 0usize);
            loop {
                let mut h = String::new();
                r.read_line(&mut h).unwrap_or_default();
                let h = h.trim_end().to_string();
                if h.is_empty() {
                    break;
                }
                if let Some((k, v)) = h.split_once(':') {
                    let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
                    if k == "content-length" {
                        len = v.parse().unwrap_or(0);
                    }
                    headers.push((k, v));
                }
            }
            let mut body = vec![0; len];
            let _ = r.read_exact(&mut body);
            log.lock().unwrap().push((headers, body));
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
        }
    });
    (url, hits)
}

#[test]
fn webhooks_through_the_client_reach_a_real_receiver_and_verify() {
    each_backend(Opts { insecure_webhooks: true, ..Default::default() }, |app| {
        let org = app.org("business", "active");
        let api = Client::new(&app.base, &org.key);
        let (url, hits) = receiver();

        let created = api
            .create_webhook(&CreateWebhook { url: url.clone(), events: vec!["*".into()], description: None }, None)
            .unwrap();
        let (id, secret) = (created.endpoint.id, created.secret.clone());
        assert!(secret.starts_with("whsec_"));
        assert_eq!(api.list_webhooks().unwrap().len(), 1);
        assert_eq!(api.get_webhook(id).unwrap().url, url);
        let patched = api
            .patch_webhook(id, &PatchWebhook { description: Some(Some("ATS".into())), ..Default::default() })
            .unwrap();
        assert_eq!(patched.description.as_deref(), Some("ATS"));

        // A ping, verified as a receiver does.
        let test = api.test_webhook(id).unwrap();
        assert!(test.success, "{test:?}");
        let (headers, body) = hits.lock().unwrap().last().cloned().unwrap();
        let header = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone()).unwrap();
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        assert_eq!(verify(&secret, &header("talent-signature"), &body, now), Ok(()));
        assert_eq!(verify("whsec_wrong", &header("talent-signature"), &body, now), Err(VerifyError::Mismatch));
        let event = Event::from_delivery(&secret, &header("talent-signature"), &body, now).unwrap();
        assert_eq!((event.event_type.as_str(), event.id), ("ping", test.delivery_id));
        assert_eq!(event.data["webhookId"], id.to_string());

        // Deliveries: list, iterate, read, redeliver.
        assert_eq!(api.list_deliveries(id, &DeliveryQuery::default(), None).unwrap().data.len(), 1);
        let all: Vec<Delivery> = api
            .deliveries(id, DeliveryQuery { limit: Some(1), ..Default::default() })
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(all.len(), 1);
        let detail = api.get_delivery(id, test.delivery_id).unwrap();
        assert_eq!(detail.attempt_log.len(), 1);
        let again = api.redeliver(id, test.delivery_id, None).unwrap();
        assert_eq!((again.id, again.status.as_str()), (test.delivery_id, "pending"));

        // An event from the API arrives signed with the current secret.
        api.import_person(&import("ev@example.com"), None).unwrap();
        let arrived = eventually(Duration::from_secs(10), || {
            hits.lock().unwrap().iter().any(|(h, b)| {
                h.iter().any(|(k, v)| k == "talent-event" && v == "person.created")
                    && Event::from_delivery(
                        &secret,
                        &h.iter().find(|(k, _)| k == "talent-signature").unwrap().1,
                        b,
                        now,
                    )
                    .is_ok()
            })
        });
        assert!(arrived, "person.created delivered and verified");

        // Rotation gives a new secret; delete removes the endpoint.
        let rotated = api.rotate_webhook_secret(id, None).unwrap();
        assert_ne!(rotated.secret, secret);
        api.delete_webhook(id).unwrap();
        assert_eq!(api.get_webhook(id).unwrap_err().status(), Some(404));
    });
}

#[test]
fn the_client_waits_out_a_real_429_and_then_succeeds() {
    each_backend(Opts { rate_limit_mode: "per-key", ..Default::default() }, |app| {
        let org = app.org("professional", "active");
        let auth = format!("Bearer {}", org.key);
        // Spend the key's budget (60/minute, D7) with raw requests until the service says 429.
        let limited =
            (0..200).any(|_| app.request("GET", "/api/v1/me", &[("Authorization", &auth)], None).status == 429);
        assert!(limited, "the budget ran out");
        let api = Client::new(&app.base, &org.key);
        let start = Instant::now();
        assert_eq!(api.me().unwrap().plan, "professional", "succeeded after Retry-After");
        assert!(start.elapsed() >= Duration::from_millis(500), "it waited: {:?}", start.elapsed());
        // Without retries the same situation is the 429 envelope with its Retry-After.
        let impatient = Client::new(&app.base, &org.key)
            .retry_policy(talent_client::RetryPolicy { max_retries: 0, ..Default::default() });
        let limited_again = (0..200).find_map(|_| impatient.me().err());
        let Some(Error::Api { status: 429, code, retry_after, .. }) = limited_again else {
            panic!("{limited_again:?}")
        };
        assert_eq!(code, "rate_limited");
        assert!(retry_after.is_some_and(|s| s >= 1));
    });
}
