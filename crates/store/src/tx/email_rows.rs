//! The rows of the email outbox, and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = emails, treat_none_as_default_value = false)]
pub struct EmailRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) invitation_id: Option<DbUuid>,
    pub(crate) to_address: String,
    pub(crate) subject: String,
    pub(crate) body: String,
    pub(crate) invitation_url: Option<String>,
    pub(crate) sent_at: Option<DbTime>,
    pub(crate) attempts: i64,
    pub(crate) last_error: Option<String>,
    pub(crate) next_attempt_at: DbTime,
    pub(crate) created_at: DbTime,
}

impl From<&EmailRecord> for EmailRow {
    fn from(e: &EmailRecord) -> Self {
        EmailRow {
            id: DbUuid(e.id.0),
            org_id: DbUuid(e.org_id.0),
            invitation_id: e.invitation_id.map(|i| DbUuid(i.0)),
            to_address: e.to.as_str().to_string(),
            subject: e.subject.clone(),
            body: e.body.clone(),
            invitation_url: e.invitation_url.clone(),
            sent_at: e.sent_at.map(DbTime),
            attempts: i64::from(e.attempts),
            last_error: e.last_error.clone(),
            next_attempt_at: DbTime(e.next_attempt_at),
            created_at: DbTime(e.created_at),
        }
    }
}

impl TryFrom<EmailRow> for EmailRecord {
    type Error = StoreError;
    fn try_from(r: EmailRow) -> Result<Self, StoreError> {
        Ok(EmailRecord {
            id: EmailId(r.id.0),
            org_id: OrgId(r.org_id.0),
            invitation_id: r.invitation_id.map(|i| InvitationId(i.0)),
            to: Email::from_stored(&r.to_address).map_err(|_| corrupt("emails.to_address"))?,
            subject: r.subject,
            body: r.body,
            invitation_url: r.invitation_url,
            sent_at: r.sent_at.map(|t| t.0),
            attempts: u32::try_from(r.attempts).unwrap_or(u32::MAX),
            last_error: r.last_error,
            next_attempt_at: r.next_attempt_at.0,
            created_at: r.created_at.0,
        })
    }
}

impl<C> DbTx<'_, C> {
    /// The row of an email of the outbox: its body and link sealed whole (D52), since they may
    /// carry a sign-in link, an invitation link or a one-time code.
    pub(super) fn email_row(&self, e: &EmailRecord) -> EmailRow {
        let mut r = EmailRow::from(e);
        r.body = self.sealer.seal(&r.body);
        r.invitation_url = r.invitation_url.map(|u| self.sealer.seal(&u));
        r
    }

    /// The email of a stored row, opened. A copy sealed under a key that is no longer configured
    /// reads as a note saying so (it is a record of what was sent, and expires with retention).
    pub(super) fn open_email(&self, mut r: EmailRow) -> StoreResult<EmailRecord> {
        const RETIRED: &str = "(this stored copy is sealed under a key that is no longer configured)";
        r.body = self.sealer.open(&r.body).unwrap_or_else(|_| RETIRED.to_string());
        r.invitation_url = r.invitation_url.map(|u| self.sealer.open(&u).unwrap_or_else(|_| RETIRED.to_string()));
        EmailRecord::try_from(r)
    }
}
