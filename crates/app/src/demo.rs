//! `talent demo` (D40): on an empty database, a demo organization on the business plan with a
//! dozen persons, nine completed assessments and two competency profiles; on every run a fresh API key (earlier demo keys are revoked, so the 10-key limit
//! is never reached).

use anyhow::Context;
use talent_domain::errors::UseCaseError;
use talent_domain::ids::OrgId;
use talent_domain::ports::Store;
use talent_domain::results::ProfileCompetency;
use talent_domain::usecases::assessments::{AssessmentCommand, NewProfile};
use talent_domain::usecases::orgs::NewOrganization;
use talent_domain::usecases::persons::ImportPerson;
use talent_domain::values::*;
use talent_domain::Services;

/// A demo profile: name, description, (competency name, weight).
type DemoProfile = (&'static str, &'static str, &'static [(&'static str, f64)]);

/// Name of the demo organization.
pub const DEMO_ORG: &str = "Talent Demo";
const DEMO_KEY_NAME: &str = "demo";

/// What `talent demo` prints.
pub struct DemoOutput {
    /// Organization name.
    pub org_name: String,
    /// Organization id.
    pub org_id: OrgId,
    /// A working API key with every scope.
    pub api_key: String,
    /// Demo keys of earlier runs revoked now (the banner says so).
    pub revoked_earlier: usize,
    /// The administrator of the demo organization (the dashboard's user, issue 18).
    pub admin_email: String,
    /// A one-time dashboard sign-in link for the administrator (`None` when the address asked
    /// for too many links in the last 15 minutes: then it asks at the sign-in page).
    pub sign_in_url: Option<String>,
    /// The dashboard's URL.
    pub dashboard_url: String,
}

const PEOPLE: [(&str, &str, &str, &str, &[&str]); 12] = [
    ("ada.lovelace@example.com", "Ada", "Lovelace", "ats-1001", &["engineering", "senior"]),
    ("alan.turing@example.com", "Alan", "Turing", "ats-1002", &["engineering"]),
    ("grace.hopper@example.com", "Grace", "Hopper", "ats-1003", &["engineering", "leadership"]),
    ("katherine.johnson@example.com", "Katherine", "Johnson", "ats-1004", &["analytics"]),
    ("edsger.dijkstra@example.com", "Edsger", "Dijkstra", "ats-1005", &["engineering"]),
    ("barbara.liskov@example.com", "Barbara", "Liskov", "ats-1006", &["engineering", "senior"]),
    ("donald.knuth@example.com", "Donald", "Knuth", "ats-1007", &["writing"]),
    ("margaret.hamilton@talent-demo.example", "Margaret", "Hamilton", "emp-2001", &["leadership"]),
    ("john.backus@talent-demo.example", "John", "Backus", "emp-2002", &[]),
    ("frances.allen@example.com", "Frances", "Allen", "ats-1008", &["analytics", "senior"]),
    ("tim.berners-lee@example.com", "Tim", "Berners-Lee", "ats-1009", &["web"]),
    ("radia.perlman@example.com", "Radia", "Perlman", "ats-1010", &["networking"]),
];

/// Seeds (first run) and mints a fresh demo key (every run).
pub async fn seed<S: Store>(svc: &Services<S>) -> anyhow::Result<DemoOutput> {
    let existing = svc
        .store
        .read(|tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.find_org_by_name(DEMO_ORG).await?) }))
        .await?;
    let org = match existing {
        Some(o) => o,
        None => {
            let (org, _) = svc
                .create_organization(NewOrganization {
                    subscription_status: Some(SubscriptionStatus::Active),
                    employee_domains: vec!["talent-demo.example".into()],
                    ..NewOrganization::new(
                        DEMO_ORG,
                        Email::parse("owner@talent-demo.example").map_err(anyhow::Error::msg)?,
                        "business",
                    )
                })
                .await?;
            svc.create_user(
                org.id,
                Email::parse("owner@talent-demo.example").map_err(anyhow::Error::msg)?,
                OrgRole::Admin,
            )
            .await?;
            let mut ids = Vec::new();
            for (email, first, last, ext, tags) in PEOPLE {
                let person = ImportPerson {
                    first_name: PersonName::parse(first).ok(),
                    last_name: PersonName::parse(last).ok(),
                    external_id: ExternalId::parse(ext).ok(),
                    tags: tags.iter().filter_map(|t| TagName::parse(t).ok()).collect(),
                    ..ImportPerson::new(Email::parse(email).map_err(anyhow::Error::msg)?)
                };
                let out = svc.import_person(org.id, person).await.context("importing demo persons")?;
                ids.push(out.person.id);
            }
            // Nine persons with a completed assessment (deterministic seeds), one in progress.
            for (i, id) in ids.iter().enumerate().take(10) {
                let cmd = AssessmentCommand {
                    complete: i < 9,
                    responses: None,
                    seed: if i < 9 { Some(1000 + i as u64) } else { None },
                };
                svc.admin_assessment(*id, cmd).await.context("seeding demo assessments")?;
            }
            let comp = |name: &str| svc.assessment.model.competencies.iter().find(|c| c.name == name).map(|c| c.id);
            let profiles: [DemoProfile; 2] = [
                (
                    "Software engineer",
                    "Builds and runs software in a product team.",
                    &[("Learning agility", 1.0), ("Quality focus", 0.8), ("Collaboration", 0.6), ("Innovation", 0.5)],
                ),
                (
                    "Team lead",
                    "Leads a team of five to ten people.",
                    &[
                        ("Coaching others", 1.0),
                        ("Persuasion", 0.7),
                        ("Accountability", 0.8),
                        ("Conflict handling", 0.6),
                    ],
                ),
            ];
            for (name, description, weights) in profiles {
                let competencies = weights
                    .iter()
                    .filter_map(|(n, w)| comp(n).map(|id| ProfileCompetency { competency_id: id, weight: *w }))
                    .collect();
                svc.create_profile(
                    org.id,
                    NewProfile { name: name.into(), description: Some(description.into()), competencies },
                )
                .await
                .context("seeding demo profiles")?;
            }
            org
        }
    };
    let org_id = org.id;
    let users = svc
        .store
        .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_users_of_org(org_id).await?) }))
        .await?;
    let user = users.first().cloned().context("the demo organization has no user")?;
    let uid = user.id;
    let keys = svc
        .store
        .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_api_keys_of_user(uid).await?) }))
        .await?;
    let mut revoked_earlier = 0;
    for k in keys.iter().filter(|k| k.name.as_deref() == Some(DEMO_KEY_NAME) && k.revoked_at.is_none()) {
        svc.revoke_api_key(k.id).await?;
        revoked_earlier += 1;
    }
    let created =
        svc.create_api_key(user.id, Some(DEMO_KEY_NAME.into()), Scopes::new(Scope::ALL.to_vec()), None).await?;
    // A sign-in link for the dashboard (issue 18), through the same use case as the sign-in page:
    // the link is in the email it queued (recorded in the sandbox).
    let sign_in_url = match svc.request_sign_in(user.email.clone()).await {
        Ok(_) => svc
            .emails(Some(user.email.clone()), 1)
            .await?
            .into_iter()
            .next()
            .and_then(|e| e.invitation_url)
            .filter(|u| u.contains("/dashboard/sign-in/")),
        Err(UseCaseError::Client(_)) => None,
        Err(e) => return Err(e.into()),
    };
    Ok(DemoOutput {
        org_name: org.company_name,
        org_id: org.id,
        api_key: created.value,
        revoked_earlier,
        admin_email: user.email.as_str().to_string(),
        sign_in_url,
        dashboard_url: svc.dashboard_url(),
    })
}
