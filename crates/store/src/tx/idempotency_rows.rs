//! The rows of idempotency records, and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = idempotency_keys, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct IdemRow {
    pub(crate) org_id: DbUuid,
    pub(crate) path: String,
    pub(crate) key: String,
    pub(crate) request_hash: String,
    pub(crate) response_status: Option<i32>,
    pub(crate) response_body: Option<String>,
    pub(crate) existing_resource: bool,
    pub(crate) created_at: DbTime,
}

impl From<&IdempotencyRecord> for IdemRow {
    fn from(r: &IdempotencyRecord) -> Self {
        let (status, body, existing) = match &r.state {
            IdempotencyState::InFlight => (None, None, false),
            IdempotencyState::Done { status, body, existing_resource } => {
                (Some(i32::from(*status)), Some(body.clone()), *existing_resource)
            }
        };
        IdemRow {
            org_id: DbUuid(r.org_id.0),
            path: r.path.clone(),
            key: r.key.clone(),
            request_hash: r.request_hash.clone(),
            response_status: status,
            response_body: body,
            existing_resource: existing,
            created_at: DbTime(r.created_at),
        }
    }
}

impl TryFrom<IdemRow> for IdempotencyRecord {
    type Error = StoreError;
    fn try_from(r: IdemRow) -> Result<Self, StoreError> {
        let state = match (r.response_status, r.response_body) {
            (Some(s), Some(body)) => IdempotencyState::Done {
                status: u16::try_from(s).map_err(|_| corrupt("idempotency_keys.response_status"))?,
                body,
                existing_resource: r.existing_resource,
            },
            _ => IdempotencyState::InFlight,
        };
        Ok(IdempotencyRecord {
            org_id: OrgId(r.org_id.0),
            path: r.path,
            key: r.key,
            request_hash: r.request_hash,
            state,
            created_at: r.created_at.0,
        })
    }
}

impl<C> DbTx<'_, C> {
    /// The row of an idempotency record; a response that carries a signing secret is sealed, the
    /// link tokens of any other are (D52).
    pub(super) fn idem_row(&self, r: &IdempotencyRecord) -> IdemRow {
        let mut row = IdemRow::from(r);
        row.response_body = row.response_body.map(|b| {
            if talent_domain::usecases::idempotency::response_carries_secret(&r.path) {
                self.sealer.seal(&b)
            } else {
                self.conceal(&b)
            }
        });
        row
    }

    pub(super) fn open_idem(&self, row: IdemRow) -> StoreResult<IdempotencyRecord> {
        let mut r = IdempotencyRecord::try_from(row)?;
        if let IdempotencyState::Done { body, .. } = &mut r.state {
            if is_sealed(body) {
                *body = self.sealer.open(body).map_err(|m| StoreError::Internal(format!("stored response: {m}")))?;
            } else {
                *body = self.reveal(body);
            }
        }
        Ok(r)
    }
}
