//! Report links (connectors.md, D68): the signed, expiring `/r/{token}` link an ATS shows its
//! recruiters, what it opens, and the record of every opening.

use super::Services;
use crate::connector::{Order, ReportOpening};
use crate::errors::{ClientError, UseCaseError};
use crate::ids::*;
use crate::ports::Store;
use time::OffsetDateTime;

/// Who opened a report link (D68).
#[derive(Clone, Debug)]
pub struct Viewed {
    /// The client address, as the API reads it.
    pub client_ip: String,
    /// The `User-Agent`, up to 300 characters.
    pub user_agent: Option<String>,
}

/// What a report link shows (D68): the report's content, as the PDF has it.
#[derive(Clone, Debug)]
pub struct ReportView {
    /// The organization that shared it.
    pub company_name: String,
    /// The person's name (or address when no name is known).
    pub person_name: String,
    /// The latest visible completion.
    pub completed_at: OffsetDateTime,
    /// For a profile test: the profile's name and the match (D66).
    pub profile_match: Option<(String, super::assessments::Match)>,
    /// Each competency: name (in [`Self::locale`]), score in [0, 1], band.
    pub competencies: Vec<(String, f64, &'static str)>,
    /// The personality text (markdown), in [`Self::locale`].
    pub personality: String,
    /// The PDF report, when it was asked for.
    pub pdf: Option<Vec<u8>>,
    /// The language of the page (T217): the reader's, else the organization's.
    pub locale: crate::values::Locale,
    /// The time zone of its dates: the organization's.
    pub zone: crate::values::TimeZone,
}

/// The answer to a report link (D68).
#[derive(Clone, Debug)]
pub enum ReportAccess {
    /// The report.
    Open(Box<ReportView>),
    /// 410: expired, the person erased, or the results no longer visible to the organization.
    Gone,
}

impl<S: Store> Services<S> {
    /// The report link of an order (D68): `{public_url}/r/{token}` once it is completed, else
    /// `None`.
    pub fn report_url(&self, order: &Order) -> Option<String> {
        order.report_link_until()?;
        Some(self.report_link(order.id))
    }

    /// The report link of order `id` whatever its state (D68): it shows the report once the
    /// order is completed, and is not found before. Kombo takes it with a cancellation too (D83).
    pub fn report_link(&self, id: OrderId) -> String {
        let base = self.invites.public_url.trim_end_matches('/');
        format!("{base}/r/{}", self.secrets.report_token(id))
    }

    /// Opens a report link (D68): the report (with the PDF when `pdf`), or [`ReportAccess::Gone`]
    /// after 180 days, after the person's erasure, or while the organization does not see the
    /// results; every opening that shows something is recorded. Errors: 404 for an unknown token
    /// or an order not completed. `reader` is the language the reader's `Accept-Language` asks
    /// for (T217): the page and the PDF are written in it, else as [`Self::report`] chooses.
    pub async fn open_report(
        &self,
        token: &str,
        who: Viewed,
        pdf: bool,
        reader: Option<crate::values::Locale>,
    ) -> Result<ReportAccess, UseCaseError> {
        let hash = self.secrets.hash_token(token);
        let now = self.clock.now();
        let order = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.find_order_by_report_token(&hash).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Report"))?;
        let Some(until) = order.report_link_until() else { return Err(ClientError::not_found("Report").into()) };
        if now >= until {
            return Ok(ReportAccess::Gone);
        }
        let org = order.org_id;
        let (person, organization) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let p = tx.get_person(org, order.person_id).await?;
                    let o = tx.get_org(org).await?;
                    Ok::<_, UseCaseError>((p, o))
                })
            })
            .await?;
        let (Some(person), Some(organization)) = (person, organization) else { return Ok(ReportAccess::Gone) };
        let company_name = organization.company_name;
        if person.archive_reason == Some(crate::person::ArchiveReason::Erased) {
            return Ok(ReportAccess::Gone);
        }
        let results = self.results(org, person.id).await?;
        let (Some(scores), Some((_, completed_at))) = (results.scores, results.personality) else {
            return Ok(ReportAccess::Gone);
        };
        let report = self.order_report(org, order.id).await?;
        let model = &self.assessment.model;
        let locale = reader.unwrap_or(organization.candidate.locale);
        let words = crate::assessment::ModelWords::new(&*self.invites.texts, locale);
        let competencies = scores
            .competencies
            .iter()
            .filter_map(|c| model.competency(c.competency_id).map(|m| (words.competency(m), c.score, c.band.as_str())))
            .collect();
        let personality = self.assessment.personality.describe(model, &scores, locale);
        let pdf = match pdf {
            true => Some(self.report(org, person.id, reader).await?.1),
            false => None,
        };
        let opening = ReportOpening {
            id: self.ids.new_uuid(),
            order_id: order.id,
            opened_at: now,
            client_ip: who.client_ip,
            user_agent: who.user_agent,
            pdf: pdf.is_some(),
        };
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.insert_report_opening(&opening).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        let person_name = match (&person.first_name, &person.last_name) {
            (None, None) => person.email.as_str().to_string(),
            (f, l) => [f.as_ref().map(|n| n.as_str()), l.as_ref().map(|n| n.as_str())]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" "),
        };
        Ok(ReportAccess::Open(Box::new(ReportView {
            company_name,
            person_name,
            completed_at,
            profile_match: report.profile.map(|p| p.name).zip(report.result),
            competencies,
            personality,
            pdf,
            locale,
            zone: organization.candidate.time_zone,
        })))
    }

    /// The openings of an order's report link, newest first, at most `limit` (D68). Errors: 404.
    pub async fn report_openings(
        &self,
        org_id: OrgId,
        id: OrderId,
        limit: u32,
    ) -> Result<Vec<ReportOpening>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_order(org_id, id).await?.ok_or_else(|| ClientError::not_found("Order"))?;
                    Ok::<_, UseCaseError>(tx.list_report_openings(id, limit).await?)
                })
            })
            .await
    }
}
