//! API keys (spec, Authentication; D41; issue 18): members see and revoke their own keys,
//! administrators every key of the organization. A new key is shown once, with a copy button;
//! `webhooks:manage` requires an administrator (the use case refuses it for a member, 403).

use super::{csrf_field, layout, notice, ok, when, when_opt, with_status};
use crate::form::Form;
use crate::respond::{see_other, signed, Ctx, Fail, MemberPost, Posted};
use crate::Dashboard;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use talent_domain::errors::{ClientError, Code};
use talent_domain::ids::ApiKeyId;
use talent_domain::ports::Store;
use talent_domain::usecases::orgs::CreatedKey;
use talent_domain::values::{Scope, Scopes};
use time::OffsetDateTime;

/// What the page shows above the list: a new key, a refusal, or the outcome of a revoke.
enum Above {
    Nothing,
    Created(CreatedKey),
    Refused(String),
    Revoked,
}

async fn page<S: Store>(d: &Dashboard<S>, ctx: &Ctx, above: Above) -> Result<Markup, Fail> {
    let now = d.svc.clock.now();
    let keys = d.svc.dashboard_keys(&ctx.who).await?;
    let admin = ctx.who.is_admin();
    let body = html! {
        @match &above {
            Above::Created(k) => {
                section.notice.good aria-labelledby="new-key-title" {
                    h2 id="new-key-title" { "Your new API key" }
                    p { "Copy it now: this is the only time it is shown. Talent stores only a hash of it." }
                    div.secret {
                        label for="new-key" .visually-hidden { "API key" }
                        input type="text" id="new-key" readonly value=(k.value) size="60";
                        button type="button" data-copy="new-key" { "Copy" }
                    }
                }
            }
            Above::Refused(why) => { (notice("bad", why)) }
            Above::Revoked => { (notice("good", "The key is revoked: requests with it are refused at once.")) }
            Above::Nothing => {}
        }
        h2 { @if admin { "Keys of the organization" } @else { "Your keys" } }
        @if keys.is_empty() {
            p.muted { "No keys yet." }
        } @else {
            table id="keys" {
                thead { tr {
                    th scope="col" { "Name" } th scope="col" { "Key" } th scope="col" { "Mode" }
                    @if admin { th scope="col" { "Owner" } }
                    th scope="col" { "Scopes" } th scope="col" { "Created" } th scope="col" { "Expires" }
                    th scope="col" { "Status" } th scope="col" { span.visually-hidden { "Actions" } }
                } }
                tbody {
                    @for (k, owner) in &keys {
                        @let status = if k.revoked_at.is_some() { "revoked" } else if k.is_active(now) { "active" } else { "expired" };
                        // A test key acts on the organization's test twin (D60).
                        @let start = if k.org_id == ctx.who.org_id() { "tk_" } else { talent_domain::usecases::access::TEST_KEY_PREFIX };
                        tr data-prefix=(k.prefix) {
                            td { (k.name.as_deref().unwrap_or("-")) }
                            td { code { (start) (k.prefix) "…" } }
                            td.mode { @if k.org_id == ctx.who.org_id() { "Live" } @else { "Test" } }
                            @if admin { td { (owner.email.as_str()) } }
                            td { (k.scopes.to_strings().join(", ")) }
                            td { (when(k.created_at)) }
                            td { (when_opt(k.expires_at)) }
                            td.status { (status) }
                            td { @if status == "active" {
                                form.inline method="post" action={"/dashboard/keys/" (k.id.0) "/revoke"} {
                                    (csrf_field(&ctx.csrf))
                                    button type="submit" aria-label={"Revoke key " (start) (k.prefix) "…"} { "Revoke" }
                                }
                            } }
                        }
                    }
                }
            }
        }
        h2 { "Create a key" }
        form.stack method="post" action="/dashboard/keys" {
            (csrf_field(&ctx.csrf))
            label for="name" { "Name (what uses it)" }
            input type="text" id="name" name="name" maxlength="100";
            fieldset {
                legend { "Scopes" }
                @for s in Scope::ALL {
                    label {
                        input type="checkbox" name="scope" value=(s.as_str()) id={"scope-" (s.as_str().replace(':', "-"))};
                        (s.as_str())
                        @if s == Scope::WebhooksManage { span.muted { " (administrators only)" } }
                    }
                }
            }
            fieldset {
                legend { "Mode" }
                label {
                    input type="radio" name="mode" value="live" id="mode-live" checked[ctx.test.is_none()];
                    "Live: acts on your organization's live data"
                }
                label {
                    input type="radio" name="mode" value="test" id="mode-test" checked[ctx.test.is_some()];
                    "Test: acts on test data only; its emails are recorded, not sent"
                }
            }
            label for="expires" { "Expires after (optional, UTC)" }
            input type="date" id="expires" name="expires";
            button type="submit" id="create-key" { "Create key" }
        }
    };
    Ok(layout(ctx, "/dashboard/keys", "API keys", body))
}

/// `GET /dashboard/keys`.
pub async fn list<S: Store>(d: web::Data<Dashboard<S>>, req: HttpRequest) -> Result<HttpResponse, Fail> {
    let ctx = signed(&d, &req).await?;
    let revoked = req.query_string().contains("revoked=1");
    Ok(ok(page(&d, &ctx, if revoked { Above::Revoked } else { Above::Nothing }).await?))
}

/// The form's expiry: the end of the chosen day (UTC), i.e. midnight after it.
fn expiry(form: &Form) -> Result<Option<OffsetDateTime>, String> {
    let Some(raw) = form.get("expires") else { return Ok(None) };
    let date = time::Date::parse(raw, time::macros::format_description!("[year]-[month]-[day]"))
        .map_err(|_| "The expiry must be a date such as 2027-01-31.".to_string())?;
    let next = date.next_day().ok_or_else(|| "The expiry is too far ahead.".to_string())?;
    Ok(Some(next.midnight().assume_utc()))
}

/// `POST /dashboard/keys`: creates a key for the signed-in user and shows it once.
pub async fn create<S: Store>(p: MemberPost<S>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, form, .. } = p;
    let scopes = match Scopes::parse(&form.all("scope")) {
        Ok(s) if s.iter().next().is_some() => s,
        Ok(_) => return Ok(bad(page(&d, &ctx, Above::Refused("Choose at least one scope.".into())).await?)),
        Err(_) => return Ok(bad(page(&d, &ctx, Above::Refused("Choose scopes from the list.".into())).await?)),
    };
    let expires_at = match expiry(&form) {
        Ok(e) => e,
        Err(why) => return Ok(bad(page(&d, &ctx, Above::Refused(why)).await?)),
    };
    let name = form.get("name").map(|n| n.chars().take(100).collect::<String>());
    let made = if form.get("mode") == Some("test") {
        d.svc.create_test_api_key(ctx.who.user.id, name, scopes, expires_at).await
    } else {
        d.svc.create_api_key(ctx.who.user.id, name, scopes, expires_at).await
    };
    match made {
        Ok(k) => Ok(ok(page(&d, &ctx, Above::Created(k)).await?)),
        Err(talent_domain::errors::UseCaseError::Client(c)) => {
            Ok(with_status(c.code.status(), page(&d, &ctx, Above::Refused(crate::respond::describe(&c))).await?))
        }
        Err(e) => Err(e.into()),
    }
}

fn bad(markup: Markup) -> HttpResponse {
    with_status(400, markup)
}

/// `POST /dashboard/keys/{id}/revoke`.
pub async fn revoke<S: Store>(p: MemberPost<S>, id: web::Path<String>) -> Result<HttpResponse, Fail> {
    let Posted { d, ctx, .. } = p;
    let id =
        uuid::Uuid::parse_str(&id).map_err(|_| Fail::Client(ClientError::new(Code::NotFound, "API key not found")))?;
    d.svc.dashboard_revoke_key(&ctx.who, ApiKeyId(id)).await?;
    Ok(see_other("/dashboard/keys?revoked=1"))
}
