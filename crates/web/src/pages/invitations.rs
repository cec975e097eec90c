//! Invitations (spec, Invitations; D17-D22; issue 18): the list with a status filter, newest first
//! in pages; create (Talent emails the link, or the page shows it to copy); resend; revoke.

use super::{button_form, csrf_field, label, layout, notice, ok, when, when_opt};
use crate::form::Form;
use crate::respond::{see_other, signed, Ctx, Fail, MemberPost, Posted};
use crate::Dashboard;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use talent_domain::errors::{ClientError, UseCaseError};
use talent_domain::ids::InvitationId;
use talent_domain::invitation::InvitationStatus;
use talent_domain::ports::{InvitationQuery, Store};
use talent_domain::usecases::invitations::NewInvitation;
use talent_domain::values::{Email, Locale, PersonName};

/// Invitations per page.
const PAGE: u32 = 25;

async fn page<S: Store>(d: &Dashboard<S>, ctx: &Ctx, query: &Form, above: Markup) -> Result<Markup, Fail> {
    let status = query.get("status").and_then(|s| InvitationStatus::parse(s).ok());
    let q = InvitationQuery {
        org_id: Some(ctx.data_org()),
        status,
        before_id: query.get("before").and_then(|b| uuid::Uuid::parse_str(b).ok()).map(InvitationId),
        limit: PAGE,
        ..InvitationQuery::default()
    };
    let list = d.svc.list_invitations(q).await?;
    let older = list.items.last().filter(|_| list.has_more).map(|last| {
        let mut s = url::form_urlencoded::Serializer::new(String::new());
        if let Some(st) = status {
            s.append_pair("status", st.as_str());
        }
        s.append_pair("before", &last.invitation.id.0.to_string());
        format!("/dashboard/invitations?{}", s.finish())
    });
    let body = html! {
        (above)
        form.filters method="get" action="/dashboard/invitations" {
            div { label for="status" { "Status" }
                select id="status" name="status" {
                    option value="" { "any" }
                    @for s in ["pending", "accepted", "expired", "revoked"] { option value=(s) selected[query.get("status") == Some(s)] { (s) } }
                } }
            button type="submit" { "Filter" }
        }
        @if list.items.is_empty() {
            p.muted { "No invitations." }
        } @else {
            table id="invitations" {
                thead { tr { th scope="col" { "Email" } th scope="col" { "Status" } th scope="col" { "Kind" } th scope="col" { "Emailed" } th scope="col" { "Expires" } th scope="col" { span.visually-hidden { "Actions" } } } }
                tbody {
                    @for v in &list.items {
                        @let i = &v.invitation;
                        @let st = i.status_at(v.now);
                        tr {
                            td { (i.email.as_str()) }
                            td { (label(st.as_str())) }
                            td { (label(i.variant.as_str())) }
                            td { (when_opt(i.email_sent_at)) }
                            td { (when(i.expires_at)) }
                            td { @if st == InvitationStatus::Pending {
                                (button_form(&format!("/dashboard/invitations/{}/resend", i.id.0), &ctx.csrf, "Resend", None))
                                " "
                                (button_form(&format!("/dashboard/invitations/{}/revoke", i.id.0), &ctx.csrf, "Revoke", None))
                            } }
                        }
                    }
                }
            }
            @if let Some(href) = older { p.pager { a href=(href) { "Older invitations" } } }
        }
        h2 { "Invite someone" }
        form.stack method="post" action="/dashboard/invitations" {
            (csrf_field(&ctx.csrf))
            label for="email" { "Email address" }
            input type="email" id="email" name="email" required;
            label for="firstName" { "First name (optional)" }
            input type="text" id="firstName" name="firstName" maxlength=(PersonName::MAX_CHARS);
            label for="lastName" { "Last name (optional)" }
            input type="text" id="lastName" name="lastName" maxlength=(PersonName::MAX_CHARS);
            label for="message" { "Message (optional)" }
            textarea id="message" name="message" maxlength="2000" rows="3" {}
            label for="expiresInDays" { "Valid for (days, 1 to 90)" }
            input type="text" inputmode="numeric" id="expiresInDays" name="expiresInDays" value="14";
            label for="locale" { "Language of the email and pages" }
            select id="locale" name="locale" {
                option value="" selected { "The person's browser language, else the organization's" }
                @for l in Locale::ALL {
                    option value=(l.as_str()) { (l.endonym()) }
                }
            }
            label { input type="checkbox" name="sendEmail" value="1" checked; " Talent emails the link (otherwise copy it from the next page)" }
            button type="submit" id="create-invitation" { "Invite" }
        }
    };
    Ok(layout(ctx, "/dashboard/invitations", "Invitations", body))
}

/// `GET /dashboard/invitations?status=&before=`.
pub async fn list<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    let query = Form::parse(req.query_string().as_bytes());
    let above = match query.get("done") {
        Some("resent") => notice("good", "Sent again."),
        Some("revoked") => notice("good", "Revoked: the link no longer works."),
        _ => html! {},
    };
    Ok(ok(page(&d, &ctx, &query, above).await?))
}

fn parsed(form: &Form) -> Result<NewInvitation, String> {
    let email = Email::parse(form.get("email").unwrap_or_default()).map_err(|e| format!("Email: {e}"))?;
    let name = |f: &str| form.get(f).map(PersonName::parse).transpose().map_err(|e| format!("{f}: {e}"));
    let days = match form.get("expiresInDays") {
        None => None,
        Some(d) => Some(d.parse::<u32>().ok().filter(|d| (1..=90).contains(d)).ok_or("Valid for: 1 to 90 days")?),
    };
    let locale = form
        .get("locale")
        .filter(|l| !l.is_empty())
        .map(Locale::parse)
        .transpose()
        .map_err(|e| format!("Language: {e}"))?;
    Ok(NewInvitation {
        candidate: talent_domain::invitation::CandidateOptions { locale, ..Default::default() },
        email,
        first_name: name("firstName")?,
        last_name: name("lastName")?,
        external_id: None,
        labels: None,
        tags: None,
        message: form.get("message").map(str::to_string),
        send_email: form.checked("sendEmail"),
        expires_in_days: days,
    })
}

/// `POST /dashboard/invitations`.
pub async fn create<S: Store>(p: MemberPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let input = match parsed(&form) {
        Ok(i) => i,
        Err(why) => return refused(&d, &ctx, why).await,
    };
    let emailed = input.send_email;
    match d.svc.create_invitation(ctx.data_org(), input).await {
        Ok((v, _)) => {
            // What the person reads, in their language (T217).
            let (subject, body) = d.svc.invitation_email_preview(&v).await?;
            let language = v.invitation.candidate.locale.map(|l| l.endonym()).unwrap_or("the organization's language");
            let above = html! {
                section.notice.good {
                    @if emailed { p { "Invitation emailed to " (v.invitation.email.as_str()) "." } }
                    @else { p { "Invitation created. Send this link to " (v.invitation.email.as_str()) ":" } }
                    div.secret {
                        input type="text" id="invitation-link" readonly value=(v.url) size="60" aria-label="Invitation link";
                        button type="button" data-copy="invitation-link" { "Copy" }
                    }
                    details id="preview-of-email" {
                        summary { "The email " (v.invitation.email.as_str()) " reads (" (language) ")" }
                        p { strong { (subject) } }
                        pre { (body) }
                    }
                }
            };
            Ok(ok(page(&d, &ctx, &Form::default(), above).await?))
        }
        Err(UseCaseError::Client(c)) => refused(&d, &ctx, crate::respond::describe(&c)).await,
        Err(e) => Err(e.into()),
    }
}

async fn refused<S: Store>(d: &Dashboard<S>, ctx: &Ctx, why: String) -> Result<HttpResponse, Fail> {
    Ok(super::with_status(400, page(d, ctx, &Form::default(), notice("bad", &why)).await?))
}

fn invitation_id(raw: &str) -> Result<InvitationId, Fail> {
    uuid::Uuid::parse_str(raw).map(InvitationId).map_err(|_| Fail::Client(ClientError::not_found("Invitation")))
}

/// `POST /dashboard/invitations/{id}/resend` (D21; limited, T93).
pub async fn resend<S: Store>(p: MemberPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    d.svc.resend_invitation(ctx.data_org(), invitation_id(&id)?, None).await?;
    Ok(see_other("/dashboard/invitations?done=resent"))
}

/// `POST /dashboard/invitations/{id}/revoke`.
pub async fn revoke<S: Store>(p: MemberPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    d.svc.revoke_invitation(ctx.data_org(), invitation_id(&id)?).await?;
    Ok(see_other("/dashboard/invitations?done=revoked"))
}
