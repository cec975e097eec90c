//! The order state machine (D67) and connection settings (D63), exhaustively.

use super::*;
use crate::ids::*;
use time::OffsetDateTime;
use uuid::Uuid;

fn order(status: OrderStatus) -> Order {
    let t = OffsetDateTime::UNIX_EPOCH;
    Order {
        id: OrderId(Uuid::from_u128(1)),
        org_id: OrgId(Uuid::from_u128(2)),
        connection_id: ConnectionId(Uuid::from_u128(3)),
        test: TestRef::TalentAssessment,
        person_id: PersonId(Uuid::from_u128(4)),
        invitation_id: InvitationId(Uuid::from_u128(5)),
        ats_key: "k".into(),
        refs: OrderRefs::default(),
        callback_url: None,
        status,
        assessment_id: None,
        created_at: t,
        updated_at: t,
        started_at: None,
        completed_at: None,
        report_token_hash: vec![1],
    }
}

#[test]
fn every_status_and_change_moves_an_order_as_d67_says() {
    use OrderStatus::*;
    let a = Some(AssessmentId(Uuid::from_u128(9)));
    let changes = [OrderChange::Accepted, OrderChange::Completed(a), OrderChange::Expired, OrderChange::Cancelled];
    // (from, change index) -> to; absent = unchanged.
    let table = [
        (Sent, 0, Started),
        (Sent, 1, Completed),
        (Sent, 2, Expired),
        (Sent, 3, Cancelled),
        (Started, 1, Completed),
        (Started, 3, Cancelled),
    ];
    let now = OffsetDateTime::UNIX_EPOCH + time::Duration::hours(1);
    for from in [Sent, Started, Completed, Expired, Cancelled] {
        for (i, change) in changes.iter().enumerate() {
            let mut o = order(from);
            let changed = o.apply(*change, now);
            let expected = table.iter().find(|(f, c, _)| *f == from && *c == i).map(|(_, _, to)| *to);
            match expected {
                Some(to) => {
                    assert!(changed, "{from:?} + {change:?}");
                    assert_eq!(o.status, to, "{from:?} + {change:?}");
                    assert_eq!(o.updated_at, now);
                }
                None => {
                    assert!(!changed, "{from:?} + {change:?} changes nothing");
                    assert_eq!(o, order(from), "{from:?} + {change:?} leaves the order as it was");
                }
            }
            if o.status == Completed && from != Completed {
                assert_eq!((o.assessment_id, o.completed_at), (a, Some(now)));
            }
            if o.status == Started && from != Started {
                assert_eq!(o.started_at, Some(now));
            }
        }
    }
}

#[test]
fn open_means_sent_or_started_and_statuses_round_trip() {
    for s in
        [OrderStatus::Sent, OrderStatus::Started, OrderStatus::Completed, OrderStatus::Expired, OrderStatus::Cancelled]
    {
        assert_eq!(OrderStatus::parse(s.as_str()), Ok(s));
        assert_eq!(s.is_open(), matches!(s, OrderStatus::Sent | OrderStatus::Started));
    }
    assert!(OrderStatus::parse("done").is_err());
}

#[test]
fn test_ids_are_profile_ids_or_talent_assessment_d65() {
    let p = ProfileId(Uuid::from_u128(7));
    assert_eq!(TestRef::parse(&TestRef::Profile(p).id()), Some(TestRef::Profile(p)));
    assert_eq!(TestRef::parse("talent-assessment"), Some(TestRef::TalentAssessment));
    assert_eq!(TestRef::parse("personality"), None);
    assert_eq!(Test::catalogue(&[])[0].test, TestRef::TalentAssessment);
}

#[test]
fn ats_values_round_trip_and_unknown_ones_are_refused() {
    for a in Ats::ALL {
        assert_eq!(Ats::parse(a.as_str()), Ok(a));
    }
    assert!(Ats::parse("lever").is_err());
}

fn settings(
    base: Option<&str>,
    key: Option<&str>,
    integration: Option<&str>,
    secret: Option<&str>,
) -> ConnectionSettings {
    let s = |v: Option<&str>| v.map(str::to_string);
    ConnectionSettings { base_url: s(base), api_key: s(key), integration_id: s(integration), webhook_secret: s(secret) }
}

fn fields(r: Result<(), Vec<(String, String)>>) -> Vec<String> {
    r.err().unwrap_or_default().into_iter().map(|(f, _)| f).collect()
}

#[test]
fn each_ats_takes_and_needs_its_own_settings_d63() {
    assert!(settings(None, None, None, None).check(Ats::Greenhouse, false).is_ok());
    assert_eq!(fields(settings(None, Some("k"), None, None).check(Ats::Greenhouse, false)), ["settings.apiKey"]);
    assert_eq!(fields(settings(None, None, None, None).check(Ats::Ashby, false)), ["settings.apiKey"]);
    assert!(settings(Some("https://ashby.example"), Some("k"), None, None).check(Ats::Ashby, false).is_ok());
    assert_eq!(
        fields(settings(Some("https://w.example"), Some("t"), None, None).check(Ats::Workable, false)),
        ["settings.baseUrl"]
    );
    assert_eq!(
        fields(settings(None, Some("k"), None, None).check(Ats::Kombo, false)),
        ["settings.integrationId", "settings.webhookSecret"]
    );
    assert!(settings(None, Some("k"), Some("i"), Some("s")).check(Ats::Kombo, false).is_ok());
}

#[test]
fn a_base_url_is_https_unless_insecure_urls_are_allowed_and_values_are_bounded() {
    let http = settings(Some("http://127.0.0.1:9000"), Some("k"), None, None);
    assert_eq!(fields(http.check(Ats::Ashby, false)), ["settings.baseUrl"]);
    assert!(http.check(Ats::Ashby, true).is_ok());
    assert_eq!(fields(settings(Some("ftp://x"), Some("k"), None, None).check(Ats::Ashby, true)), ["settings.baseUrl"]);
    let long = "k".repeat(ConnectionSettings::MAX_CHARS + 1);
    assert_eq!(fields(settings(None, Some(&long), None, None).check(Ats::Ashby, false)), ["settings.apiKey"]);
    assert_eq!(fields(settings(None, Some("a\u{7}b"), None, None).check(Ats::Ashby, false)), ["settings.apiKey"]);
}

#[test]
fn credentials_never_print_in_debug_output() {
    let s = format!("{:?}", settings(None, Some("secret-key-1"), Some("int"), Some("secret-hook-2")));
    assert!(!s.contains("secret-key-1") && !s.contains("secret-hook-2"), "{s}");
    assert!(s.contains("int"));
}

#[test]
fn a_patch_replaces_clears_or_keeps_each_setting() {
    let s = settings(Some("https://a.example"), Some("k"), None, None);
    let p = SettingsPatch { base_url: Some(None), api_key: Some(Some("k2".into())), ..Default::default() };
    assert_eq!(s.patched(&p), settings(None, Some("k2"), None, None));
    assert_eq!(s.patched(&SettingsPatch::default()), s);
}

#[test]
fn activity_is_written_at_most_once_a_minute() {
    let t = OffsetDateTime::UNIX_EPOCH;
    let mut c = Connection {
        id: ConnectionId(Uuid::from_u128(1)),
        org_id: OrgId(Uuid::from_u128(2)),
        ats: Ats::Greenhouse,
        name: "GH".into(),
        enabled: true,
        settings: ConnectionSettings::default(),
        api_key_id: ApiKeyId(Uuid::from_u128(3)),
        key: "tk_x".into(),
        endpoint_id: WebhookId(Uuid::from_u128(4)),
        created_at: t,
        updated_at: t,
        last_activity_at: None,
        locale: None,
    };
    assert!(c.needs_touch(t));
    assert!(c.touch(t));
    assert!(!c.needs_touch(t + time::Duration::seconds(59)), "asking changes nothing");
    assert!(!c.touch(t + time::Duration::seconds(59)));
    assert!(c.needs_touch(t + time::Duration::seconds(60)));
    assert!(c.touch(t + time::Duration::seconds(60)));
    assert_eq!(c.last_activity_at, Some(t + time::Duration::seconds(60)));
    assert_eq!(Connection::parse_name("  Greenhouse EU "), Ok("Greenhouse EU".into()));
    assert!(Connection::parse_name(" ").is_err());
}
