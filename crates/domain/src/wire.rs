//! The published JSON shapes that both the API and webhook events carry (spec, Resources; D34):
//! one place, so an API response and an event's `data` can never drift apart.

use crate::model::*;
use crate::timefmt::format;
use serde_json::{json, Value};

/// The Person object: exactly the spec's fields, all present, no others.
pub fn person_json(p: &Person) -> Value {
    json!({
        "id": p.id.to_string(),
        "email": p.email.as_str(),
        "firstName": p.first_name.as_ref().map(|n| n.as_str()),
        "lastName": p.last_name.as_ref().map(|n| n.as_str()),
        "externalId": p.external_id.as_ref().map(|n| n.as_str()),
        "status": p.status.as_str(),
        "labels": p.labels.to_vec(),
        "tags": p.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        "joinedVia": p.joined_via.as_str(),
        "sharedExistingProfile": p.shared_existing_profile,
        "assessment": {
            "status": p.assessment.status.as_str(),
            "completedAt": p.assessment.completed_at.map(format),
            "count": p.assessment.count,
        },
        "memberSince": format(p.member_since),
        "updatedAt": format(p.updated_at),
        "archivedAt": p.archived_at.map(format),
    })
}

/// The Organization object (spec, Organization): exactly the spec's fields.
pub fn organization_json(org: &Organization, usage: &Usage) -> Value {
    json!({
        "id": org.id.to_string(),
        "companyName": org.company_name,
        "email": org.email.as_str(),
        "createdAt": format(org.created_at),
        "subscription": {
            "plan": org.plan,
            "status": org.subscription_status.as_str(),
            "trialEndsAt": org.trial_ends_at.map(format),
            "currentPeriodEnd": org.current_period_end.map(format),
        },
        "usage": {
            "persons": {
                "used": usage.persons_used,
                "limit": usage.persons_limit,
                "importBlocked": usage.import_blocked,
            },
            "profiles": {
                "used": usage.profiles_used,
                "limit": usage.profiles_limit,
            }
        }
    })
}

/// The key identity object of `GET /me`.
pub fn key_identity_json(ctx: &KeyContext) -> Value {
    json!({
        "userId": ctx.key.user_id.to_string(),
        "organizationId": ctx.org.id.to_string(),
        "organizationRole": ctx.role.as_str(),
        "scopes": ctx.key.scopes.to_strings(),
        "plan": ctx.org.plan,
    })
}

/// The Invitation object (spec, Invitation): exactly the spec's fields; `status` as read at `now`
/// (D21).
pub fn invitation_json(i: &crate::invitation::Invitation, url: &str, now: time::OffsetDateTime) -> Value {
    json!({
        "id": i.id.to_string(),
        "email": i.email.as_str(),
        "firstName": i.first_name.as_ref().map(|n| n.as_str()),
        "lastName": i.last_name.as_ref().map(|n| n.as_str()),
        "externalId": i.external_id.as_ref().map(|n| n.as_str()),
        "personId": i.person_id.map(|p| p.to_string()),
        "status": i.status_at(now).as_str(),
        "labels": i.labels.map(|l| l.to_vec()),
        "tags": i.tags,
        "variant": i.variant.as_str(),
        "message": i.message,
        "url": url,
        "emailSentAt": i.email_sent_at.map(format),
        "expiresAt": format(i.expires_at),
        "acceptedAt": i.accepted_at.map(format),
        "revokedAt": i.revoked_at.map(format),
        "createdAt": format(i.created_at),
        "updatedAt": format(i.updated_at),
    })
}
