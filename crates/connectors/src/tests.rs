//! The partner routes over the domain's fakes (connectors.md D64-D80): each protocol's names,
//! statuses and error shapes, and a property test that no body makes a route fail with a 5xx.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use actix_web::{test as atest, App};
use base64::Engine;
use proptest::prelude::*;
use serde_json::{json, Value};
use talent_domain::connector::{Ats, ConnectionSettings, NewConnection};
use talent_domain::fakes::{block_on, services, FakeStore};
use talent_domain::ports::{BoxFuture, RateDecision, RateSubject};
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::values::{Email, OrgRole, SubscriptionStatus};

/// Rate limiting off.
struct NoLimits;

impl RateLimiter for NoLimits {
    fn check<'a>(&'a self, _: RateSubject<'a>) -> BoxFuture<'a, Option<RateDecision>> {
        Box::pin(async { None })
    }
    fn blocked(&self, _: IpAddr) -> BoxFuture<'_, Option<RateDecision>> {
        Box::pin(async { None })
    }
    fn admin_blocked(&self, _: IpAddr) -> BoxFuture<'_, Option<RateDecision>> {
        Box::pin(async { None })
    }
}

pub(crate) struct World {
    pub(crate) partners: web::Data<Partners<FakeStore>>,
    pub(crate) store: FakeStore,
    /// Connection keys by ATS.
    keys: Vec<(Ats, String)>,
}

pub(crate) fn world() -> World {
    let (svc, store, _clock) = services();
    let (org, _) = block_on(svc.create_organization(NewOrganization {
        subscription_status: Some(SubscriptionStatus::Active),
        ..NewOrganization::new("Acme", Email::parse("hr@acme.test").unwrap(), "business")
    }))
    .unwrap();
    block_on(svc.create_user(org.id, Email::parse("admin@acme.test").unwrap(), OrgRole::Admin)).unwrap();
    let mut keys = vec![];
    for ats in Ats::ALL {
        let settings = match ats {
            Ats::Greenhouse => ConnectionSettings::default(),
            Ats::Kombo => ConnectionSettings {
                base_url: Some("https://kombo.example/v1".into()),
                api_key: Some("kombo-key".into()),
                integration_id: Some(KOMBO_INTEGRATION.into()),
                webhook_secret: Some(KOMBO_SECRET.into()),
            },
            _ => ConnectionSettings { api_key: Some("their-key".into()), ..Default::default() },
        };
        let c = NewConnection { ats, name: ats.display_name().into(), settings, locale: None };
        keys.push((ats, block_on(svc.create_connection(org.id, c, None)).unwrap().key));
    }
    let client_ip: ClientIp = Arc::new(|_| IpAddr::from([127, 0, 0, 1]));
    let partners = web::Data::new(Partners { svc, limiter: Arc::new(NoLimits), client_ip });
    World { partners, store, keys }
}

impl World {
    fn key(&self, ats: Ats) -> &str {
        &self.keys.iter().find(|(a, _)| *a == ats).unwrap().1
    }
    fn basic(&self, ats: Ats) -> String {
        format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{}:", self.key(ats))))
    }
    fn emails(&self) -> usize {
        self.store.snapshot().emails.len()
    }
}

/// The Kombo connection's integration id and webhook secret in [`world`].
pub(crate) const KOMBO_INTEGRATION: &str = "acme:kombo-1";
pub(crate) const KOMBO_SECRET: &str = "kombo-webhook-secret";

/// One request to the partner routes: (status, `WWW-Authenticate`, body).
fn send(w: &World, method: &str, path: &str, auth: Option<&str>, body: Option<&[u8]>) -> (u16, Option<String>, Value) {
    let headers: Vec<(&str, String)> = auth.map(|a| ("Authorization", a.to_string())).into_iter().collect();
    send_headers(w, method, path, &headers, body)
}

/// [`send`] with any headers.
pub(crate) fn send_headers(
    w: &World,
    method: &str,
    path: &str,
    headers: &[(&str, String)],
    body: Option<&[u8]>,
) -> (u16, Option<String>, Value) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let app = atest::init_service(
            App::new().app_data(w.partners.clone()).service(web::scope("/partners").configure(configure::<FakeStore>)),
        )
        .await;
        let mut req = atest::TestRequest::default()
            .method(method.parse().unwrap())
            .uri(path)
            .insert_header(("Content-Type", "application/json"));
        for (name, value) in headers {
            req = req.insert_header((*name, value.as_str()));
        }
        if let Some(b) = body {
            req = req.set_payload(b.to_vec());
        }
        let resp = atest::call_service(&app, req.to_request()).await;
        let status = resp.status().as_u16();
        let www = resp.headers().get("www-authenticate").and_then(|v| v.to_str().ok()).map(str::to_string);
        let bytes = atest::read_body(resp).await;
        (status, www, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    })
}

fn post(w: &World, path: &str, auth: &str, body: &Value) -> (u16, Value) {
    let (s, _, v) = send(w, "POST", path, Some(auth), Some(body.to_string().as_bytes()));
    (s, v)
}

#[test]
fn basic_credentials_are_the_key_as_user_name_with_an_empty_password_d64() {
    let enc = |s: &str| format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(s));
    assert_eq!(call::bearer_of(Some(&enc("tk_abc:"))).as_deref(), Some("Bearer tk_abc"));
    assert_eq!(call::bearer_of(Some("Bearer tk_abc")).as_deref(), Some("Bearer tk_abc"));
    for bad in [enc("tk_abc:password"), enc(":"), enc("no-colon"), "Basic !!!".to_string()] {
        assert_eq!(call::bearer_of(Some(&bad)).as_deref(), Some("Bearer \u{0}malformed"), "{bad}");
    }
    assert_eq!(call::bearer_of(None), None);
}

#[test]
fn greenhouse_lists_tests_sends_once_and_reports_status_d71_d72_d73() {
    let w = world();
    let auth = w.basic(Ats::Greenhouse);
    let (s, _, tests) = send(&w, "GET", "/partners/greenhouse/list_tests", Some(&auth), None);
    assert_eq!(s, 200);
    assert_eq!(tests, json!([{"partner_test_id": "talent-assessment", "partner_test_name": "Talent assessment"}]));
    let body = json!({
        "partner_test_id": "talent-assessment",
        "candidate": {"first_name": "Ada", "last_name": "Lovelace", "preferred_name": "Ada", "email": "ada@example.test",
                      "phone_number": null, "greenhouse_profile_url": "https://app.greenhouse.io/people/1"},
        "sent_by": "recruiter@acme.test",
        "url": "https://app.greenhouse.io/integrations/testing_partners/take_home_tests/1"
    });
    let (s, first) = post(&w, "/partners/greenhouse/send_test", &auth, &body);
    assert_eq!(s, 200, "{first}");
    let (_, again) = post(&w, "/partners/greenhouse/send_test", &auth, &body);
    assert_eq!(again, first, "the retry gets the same id");
    assert_eq!(w.emails(), 1, "and no second email");
    let id = first["partner_interview_id"].as_str().unwrap();
    let (s, _, st) =
        send(&w, "GET", &format!("/partners/greenhouse/test_status?partner_interview_id={id}"), Some(&auth), None);
    assert_eq!(s, 200);
    assert_eq!(
        st,
        json!({"partner_status": "sent", "partner_profile_url": null, "partner_score": null, "metadata": {}})
    );
    let (s, _, nf) = send(&w, "GET", "/partners/greenhouse/test_status?partner_interview_id=nope", Some(&auth), None);
    assert_eq!((s, nf["code"].as_str()), (404, Some("not_found")));
}

#[test]
fn greenhouse_refusals_use_the_envelope_and_ask_for_basic_credentials_d64_d72() {
    let w = world();
    let (s, www, e) = send(&w, "GET", "/partners/greenhouse/list_tests", None, None);
    assert_eq!((s, www.as_deref(), e["code"].as_str()), (401, Some("Basic realm=\"talent\""), Some("unauthorized")));
    let (s, www, _) = send(&w, "GET", "/partners/greenhouse/list_tests", Some("Basic Zm9vOg=="), None);
    assert_eq!((s, www.as_deref()), (401, Some("Basic realm=\"talent\"")));
    // Another ATS's connection key of the same organization speaks for its Greenhouse connection.
    let (s, _, _) = send(&w, "GET", "/partners/greenhouse/list_tests", Some(&w.basic(Ats::Ashby)), None);
    assert_eq!(s, 200);
    let auth = w.basic(Ats::Greenhouse);
    let unknown =
        json!({"partner_test_id": "x", "candidate": {"email": "a@example.test"}, "url": "https://gh.example/1"});
    let (s, e) = post(&w, "/partners/greenhouse/send_test", &auth, &unknown);
    assert_eq!((s, e["code"].as_str()), (400, Some("validation_error")));
    assert_eq!(e["details"]["fields"][0]["field"], "partner_test_id");
    let (s, _, e) = send(&w, "POST", "/partners/greenhouse/send_test", Some(&auth), Some(b"{not json"));
    assert_eq!((s, e["code"].as_str()), (400, Some("validation_error")));
    assert_eq!(w.store.snapshot().orders.len(), 0, "nothing created");
    let (s, ok) =
        post(&w, "/partners/greenhouse/response_error", &auth, &json!({"api_call": "send_test", "errors": ["x"]}));
    assert_eq!((s, ok), (200, json!({"status": 200})));
    assert_eq!(w.store.snapshot().connection_errors.len(), 1);
}

#[test]
fn ashby_lists_starts_refuses_a_second_start_and_cancels_d76_d77_d78() {
    let w = world();
    let auth = w.basic(Ats::Ashby);
    let (s, list) = post(&w, "/partners/ashby/assessment.list", &auth, &json!({}));
    assert_eq!(s, 200);
    assert_eq!(list["success"], true);
    assert_eq!(list["results"][0]["assessment_type_id"], "talent-assessment");
    let start = json!({
        "assessment_type_id": "talent-assessment",
        "candidate": {"ashby_id": "c1", "first_name": "Ada", "last_name": "L", "email": "ada@example.test",
                      "ashby_profile_url": "https://app.ashbyhq.com/candidates/c1"},
        "application": {"ashby_id": "a1", "status": "Active"},
        "job": {"ashby_id": "j1", "name": "Engineer", "ashby_job_url": "https://app.ashbyhq.com/jobs/j1"}
    });
    let (s, started) = post(&w, "/partners/ashby/assessment.start", &auth, &start);
    assert_eq!(s, 200, "{started}");
    assert_eq!(started["success"], true);
    let id = started["results"]["assessment_id"].as_str().unwrap().to_string();
    let (s, again) = post(&w, "/partners/ashby/assessment.start", &auth, &start);
    assert_eq!(s, 409, "{again}");
    assert!(again["message"].is_string());
    let mut unknown = start.clone();
    unknown["assessment_type_id"] = json!("personality");
    let (s, e) = post(&w, "/partners/ashby/assessment.start", &auth, &unknown);
    assert_eq!(s, 422);
    assert!(e["message"].as_str().unwrap().contains("assessment_type_id"), "{e}");
    let (s, c) = post(&w, "/partners/ashby/assessment.cancel", &auth, &json!({"assessment_id": id}));
    assert_eq!((s, c["results"]["assessment_id"].as_str()), (200, Some(id.as_str())));
    assert_eq!(w.store.snapshot().orders[0].status, talent_domain::connector::OrderStatus::Cancelled);
    let (s, _) = post(&w, "/partners/ashby/assessment.cancel", &auth, &json!({"assessment_id": "unknown"}));
    assert_eq!(s, 404);
}

#[test]
fn workable_lists_tests_and_creates_assessments_with_a_bearer_key_d80() {
    let w = world();
    let auth = format!("Bearer {}", w.key(Ats::Workable));
    let (s, _, tests) = send(&w, "GET", "/partners/workable/tests", Some(&auth), None);
    assert_eq!((s, tests["tests"][0]["id"].as_str()), (200, Some("talent-assessment")));
    let body = json!({
        "test_id": "talent-assessment",
        "callback_url": "https://www.workable.com/assessments/callback/1",
        "candidate": {"first_name": "Ada", "last_name": "L", "email": "ada@example.test", "phone": "+1 555"},
        "job_shortcode": "ABC123", "job_title": "Engineer"
    });
    let (s, first) = post(&w, "/partners/workable/assessments", &auth, &body);
    assert_eq!(s, 201, "{first}");
    let (s, again) = post(&w, "/partners/workable/assessments", &auth, &body);
    assert_eq!((s, &again), (201, &first), "a retry is the same assessment");
    let mut bad = body.clone();
    bad["callback_url"] = json!("ftp://nowhere");
    let (s, e) = post(&w, "/partners/workable/assessments", &auth, &bad);
    assert_eq!((s, e["details"]["fields"][0]["field"].as_str()), (400, Some("callback_url")));
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[a-z@.:/ -]{0,24}".prop_map(Value::String),
        Just(json!("talent-assessment")),
        Just(json!("ada@example.test")),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("partner_test_id".to_string()),
                    Just("candidate".to_string()),
                    Just("email".to_string()),
                    Just("url".to_string()),
                    Just("assessment_type_id".to_string()),
                    Just("application".to_string()),
                    Just("ashby_id".to_string()),
                    Just("test_id".to_string()),
                    Just("callback_url".to_string()),
                    Just("assessment_id".to_string()),
                    Just("package_id".to_string()),
                    Just("integration_id".to_string()),
                    Just("remote_id".to_string()),
                    Just("first_name".to_string()),
                    "[a-z_]{1,8}".prop_map(|s| s),
                ],
                inner,
                0..6,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// No body makes any inbound route answer a 5xx (connectors' "bad input").
    #[test]
    fn no_body_makes_a_partner_route_fail(body in json_value(), raw in prop::collection::vec(any::<u8>(), 0..64)) {
        let w = world();
        let routes = [
            (Ats::Greenhouse, "/partners/greenhouse/send_test"),
            (Ats::Greenhouse, "/partners/greenhouse/response_error"),
            (Ats::Ashby, "/partners/ashby/assessment.start"),
            (Ats::Ashby, "/partners/ashby/assessment.cancel"),
            (Ats::Ashby, "/partners/ashby/assessment.list"),
            (Ats::Workable, "/partners/workable/assessments"),
        ];
        for (ats, path) in routes {
            let auth = w.basic(ats);
            for b in [body.to_string().into_bytes(), raw.clone()] {
                let (s, _, _) = send(&w, "POST", path, Some(&auth), Some(&b));
                prop_assert!(s < 500, "{} answered {} to {:?}", path, s, String::from_utf8_lossy(&b));
            }
        }
        // Kombo's webhook, signed right, so that every body reaches the order's parsing.
        let wrapped = json!({"type": kombo::ORDER_RECEIVED, "data": body}).to_string().into_bytes();
        for b in [body.to_string().into_bytes(), raw.clone(), wrapped] {
            let headers = vec![("X-Kombo-Signature", kombo::sign(KOMBO_SECRET, &b))];
            let (s, _, _) = send_headers(&w, "POST", "/partners/kombo/webhook", &headers, Some(&b));
            prop_assert!(s < 500, "the Kombo webhook answered {} to {:?}", s, String::from_utf8_lossy(&b));
        }
    }
}

mod pushes {
    use super::*;
    use talent_domain::assessment::MatchCategory;
    use talent_domain::connector::{Connection, Order, OrderStatus, TestRef};
    use talent_domain::ids::*;
    use talent_domain::ports::{PushInput, PushRenderer};
    use talent_domain::results::Profile;
    use talent_domain::usecases::assessments::Match;
    use talent_domain::usecases::orders::OrderReport;
    use time::OffsetDateTime;
    use uuid::Uuid;

    fn connection(ats: Ats) -> Connection {
        let t = OffsetDateTime::UNIX_EPOCH;
        Connection {
            id: ConnectionId(Uuid::from_u128(1)),
            org_id: OrgId(Uuid::from_u128(2)),
            ats,
            name: "x".into(),
            enabled: true,
            settings: ConnectionSettings { api_key: Some("their-key".into()), ..Default::default() },
            api_key_id: ApiKeyId(Uuid::from_u128(3)),
            key: "tk_ours".into(),
            endpoint_id: WebhookId(Uuid::from_u128(4)),
            created_at: t,
            updated_at: t,
            last_activity_at: None,
            locale: None,
        }
    }

    fn report(status: OrderStatus, scored: bool) -> OrderReport {
        let t = OffsetDateTime::UNIX_EPOCH;
        let profile = ProfileId(Uuid::from_u128(5));
        OrderReport {
            order: Order {
                id: OrderId(Uuid::from_u128(6)),
                org_id: OrgId(Uuid::from_u128(2)),
                connection_id: ConnectionId(Uuid::from_u128(1)),
                test: if scored { TestRef::Profile(profile) } else { TestRef::TalentAssessment },
                person_id: PersonId(Uuid::from_u128(7)),
                invitation_id: InvitationId(Uuid::from_u128(8)),
                ats_key: "k".into(),
                refs: Default::default(),
                callback_url: Some("https://ats.example/cb/1".into()),
                status,
                assessment_id: None,
                created_at: t,
                updated_at: t,
                started_at: None,
                completed_at: Some(t),
                report_token_hash: vec![],
            },
            profile: scored.then(|| Profile {
                id: profile,
                org_id: OrgId(Uuid::from_u128(2)),
                name: "Engineer".into(),
                description: None,
                competencies: vec![],
                created_at: t,
                updated_at: t,
            }),
            result: scored.then_some(Match {
                person_id: PersonId(Uuid::from_u128(7)),
                profile_id: profile,
                percentage: 72,
                category: MatchCategory::High,
            }),
        }
    }

    fn render(ats: Ats, status: OrderStatus, scored: bool) -> Option<talent_domain::ports::PushRequest> {
        let c = connection(ats);
        let r = report(status, scored);
        let at = OffsetDateTime::UNIX_EPOCH + time::Duration::milliseconds(1_700_000_000_123);
        push::Renderer.render(&PushInput {
            connection: &c,
            report: &r,
            report_url: Some("https://t.example/r/tok"),
            at,
            pdf: Some(b"%PDF-1.7 report"),
        })
    }

    fn body(r: &talent_domain::ports::PushRequest) -> Value {
        serde_json::from_str(r.body.as_deref().unwrap()).unwrap()
    }

    #[test]
    fn greenhouse_gets_a_bodyless_patch_with_our_key_as_basic_user_d74() {
        let r = render(Ats::Greenhouse, OrderStatus::Completed, true).unwrap();
        assert_eq!((r.method, r.url.as_str(), r.body.as_deref()), ("PATCH", "https://ats.example/cb/1", None));
        let expected = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("tk_ours:"));
        assert_eq!(r.authorization.as_deref(), Some(expected.as_str()));
        assert!(render(Ats::Greenhouse, OrderStatus::Started, true).is_none());
    }

    #[test]
    fn ashby_gets_assessment_update_in_its_object_form_d79() {
        let done = render(Ats::Ashby, OrderStatus::Completed, true).unwrap();
        assert_eq!((done.method, done.url.as_str()), ("POST", "https://api.ashbyhq.com/assessment.update"));
        assert!(done.success_member, "success: false is a failure");
        let expected = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode("their-key:"));
        assert_eq!(done.authorization.as_deref(), Some(expected.as_str()));
        let b = body(&done);
        assert_eq!(b["timestamp"], json!(1_700_000_000_123i64));
        assert_eq!(b["assessment_status"]["value"], "Completed");
        assert_eq!(
            b["assessment_result"],
            json!({"identifier": "match", "label": "Match: Engineer", "type": "numeric_score", "value": 72})
        );
        assert_eq!(b["assessment_profile_url"]["type"], "url");
        assert_eq!(b["metadata"][0]["value"], "high");
        assert!(!b.to_string().contains("competenc"), "never a competency score (D66)");
        let plain = body(&render(Ats::Ashby, OrderStatus::Completed, false).unwrap());
        assert_eq!(plain["assessment_result"]["type"], "boolean_success");
        assert_eq!(
            body(&render(Ats::Ashby, OrderStatus::Started, false).unwrap())["assessment_status"]["value"],
            "Started"
        );
        assert_eq!(
            body(&render(Ats::Ashby, OrderStatus::Expired, false).unwrap())["cancelled_reason"]["value"],
            "Expired"
        );
    }

    #[test]
    fn workable_gets_a_put_with_score_grade_and_summary_d80() {
        let r = render(Ats::Workable, OrderStatus::Completed, true).unwrap();
        assert_eq!((r.method, r.authorization.as_deref()), ("PUT", Some("Bearer their-key")));
        assert_eq!(
            body(&r),
            json!({"status": "completed", "results_url": "https://t.example/r/tok",
                   "assessment": {"score": 72, "grade": "excelled", "summary": "Engineer: 72% (high)"}})
        );
        assert_eq!(body(&render(Ats::Workable, OrderStatus::Expired, true).unwrap()), json!({"status": "expired"}));
        assert!(render(Ats::Workable, OrderStatus::Cancelled, true).is_none());
    }

    fn kombo(status: OrderStatus, scored: bool, pdf: Option<&[u8]>) -> Option<talent_domain::ports::PushRequest> {
        let mut c = connection(Ats::Kombo);
        c.settings.integration_id = Some("acme:1".into());
        let mut r = report(status, scored);
        r.order.ats_key = "B5KQ/x".into();
        let at = OffsetDateTime::UNIX_EPOCH + time::Duration::days(1);
        let input = PushInput { connection: &c, report: &r, report_url: Some("https://t.example/r/tok"), at, pdf };
        push::Renderer.render(&input)
    }

    #[test]
    fn kombo_gets_a_result_put_with_the_percentage_the_category_and_the_pdf_d83() {
        let r = kombo(OrderStatus::Completed, true, Some(b"%PDF-1.7 report")).unwrap();
        assert_eq!((r.method, r.url.as_str()), ("PUT", "https://api.kombo.dev/v1/assessment/orders/B5KQ%2Fx/result"));
        assert_eq!(r.authorization.as_deref(), Some("Bearer their-key"));
        assert_eq!(r.headers, vec![("X-Integration-Id", "acme:1".to_string())]);
        let b = body(&r);
        assert_eq!(
            b,
            json!({
                "status": "COMPLETED",
                "completed_at": "1970-01-01T00:00:00Z",
                "score": 72,
                "max_score": 100,
                "result_url": "https://t.example/r/tok",
                "attributes": [{"type": "TEXT", "label": "Category", "value": "high"}],
                "attachments": [{"name": "report.pdf", "content_type": "application/pdf",
                                 "data": base64::engine::general_purpose::STANDARD.encode(b"%PDF-1.7 report")}],
            })
        );
        assert!(!b.to_string().contains("competenc"), "never a competency score (D66)");
        // The talent-assessment test: completion and link, no score; no PDF, no attachment.
        let plain = body(&kombo(OrderStatus::Completed, false, None).unwrap());
        assert!(plain.get("score").is_none() && plain.get("max_score").is_none());
        assert_eq!((plain["attributes"].clone(), plain["attachments"].clone()), (json!([]), json!([])));
        for s in [OrderStatus::Expired, OrderStatus::Cancelled] {
            assert_eq!(
                body(&kombo(s, true, None).unwrap()),
                json!({"status": "CANCELLED", "completed_at": "1970-01-02T00:00:00Z", "result_url": "https://t.example/r/tok"})
            );
        }
        assert!(kombo(OrderStatus::Started, true, None).is_none(), "no push on start");
    }

    #[test]
    fn kombo_gets_every_test_as_a_behavioral_package_d81() {
        let mut c = connection(Ats::Kombo);
        c.settings.base_url = Some("https://api.us.kombo.dev/v1/".into());
        c.settings.integration_id = Some("acme:1".into());
        let p = report(OrderStatus::Sent, true).profile.unwrap();
        let tests = talent_domain::connector::Test::catalogue(std::slice::from_ref(&p));
        let r = push::Renderer.packages(&c, &tests).unwrap();
        assert_eq!((r.method, r.url.as_str()), ("PUT", "https://api.us.kombo.dev/v1/assessment/packages"));
        assert_eq!(r.headers, vec![("X-Integration-Id", "acme:1".to_string())]);
        let packages = body(&r)["packages"].clone();
        assert_eq!(packages.as_array().unwrap().len(), 2);
        assert_eq!(packages[0]["id"], "talent-assessment");
        assert_eq!(
            packages[1],
            json!({"id": p.id.to_string(), "type": "BEHAVIORAL", "name": "Engineer", "description": "Engineer"})
        );
        assert!(push::Renderer.packages(&connection(Ats::Ashby), &tests).is_none(), "only Kombo keeps packages");
    }
}
