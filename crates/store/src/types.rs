//! Column types shared by both backends: native `uuid` and `timestamptz` on PostgreSQL, TEXT on
//! SQLite (UUIDs hyphenated lower-case, times fixed-width UTC with microseconds, so text order is
//! byte order and time order; storage-notes).

use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::pg::{Pg, PgValue};
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sqlite::Sqlite;
use std::io::Write;
use time::OffsetDateTime;

/// SQL types of the shared schema.
pub mod sql {
    /// `uuid` on PostgreSQL, TEXT on SQLite.
    #[derive(diesel::sql_types::SqlType, diesel::query_builder::QueryId, Clone, Copy, Debug, Default)]
    #[diesel(postgres_type(oid = 2950, array_oid = 2951))]
    #[diesel(sqlite_type(name = "Text"))]
    pub struct Uuid;

    /// `timestamptz` on PostgreSQL, TEXT on SQLite.
    #[derive(diesel::sql_types::SqlType, diesel::query_builder::QueryId, Clone, Copy, Debug, Default)]
    #[diesel(postgres_type(oid = 1184, array_oid = 1185))]
    #[diesel(sqlite_type(name = "Text"))]
    pub struct Ts;
}

/// A UUID column value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromSqlRow, AsExpression)]
#[diesel(sql_type = sql::Uuid)]
pub struct DbUuid(pub uuid::Uuid);

/// Ids of any kind as the columns hold them (an `eq_any` over a batch).
pub(crate) fn db_uuids<I: Copy + Into<uuid::Uuid>>(ids: &[I]) -> Vec<DbUuid> {
    ids.iter().map(|&i| DbUuid(i.into())).collect()
}

/// A timestamp column value (UTC, microseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromSqlRow, AsExpression)]
#[diesel(sql_type = sql::Ts)]
pub struct DbTime(pub OffsetDateTime);

impl ToSql<sql::Uuid, Pg> for DbUuid {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        out.write_all(self.0.as_bytes())?;
        Ok(IsNull::No)
    }
}

impl FromSql<sql::Uuid, Pg> for DbUuid {
    fn from_sql(bytes: PgValue<'_>) -> deserialize::Result<Self> {
        Ok(DbUuid(uuid::Uuid::from_slice(bytes.as_bytes())?))
    }
}

impl ToSql<sql::Uuid, Sqlite> for DbUuid {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        out.set_value(self.0.hyphenated().to_string());
        Ok(IsNull::No)
    }
}

impl FromSql<sql::Uuid, Sqlite> for DbUuid {
    fn from_sql(value: diesel::sqlite::SqliteValue<'_, '_, '_>) -> deserialize::Result<Self> {
        let s = <String as FromSql<diesel::sql_types::Text, Sqlite>>::from_sql(value)?;
        Ok(DbUuid(uuid::Uuid::parse_str(&s)?))
    }
}

/// Microseconds between the Unix epoch and PostgreSQL's epoch (2000-01-01T00:00:00Z).
const PG_EPOCH_OFFSET_MICROS: i64 = 946_684_800_000_000;

fn unix_micros(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000) as i64
}

impl ToSql<sql::Ts, Pg> for DbTime {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        let v = unix_micros(self.0) - PG_EPOCH_OFFSET_MICROS;
        out.write_all(&v.to_be_bytes())?;
        Ok(IsNull::No)
    }
}

impl FromSql<sql::Ts, Pg> for DbTime {
    fn from_sql(bytes: PgValue<'_>) -> deserialize::Result<Self> {
        let b: [u8; 8] = bytes.as_bytes().try_into().map_err(|_| "timestamptz: expected 8 bytes")?;
        let micros = i64::from_be_bytes(b) + PG_EPOCH_OFFSET_MICROS;
        Ok(DbTime(OffsetDateTime::from_unix_timestamp_nanos(micros as i128 * 1_000)?))
    }
}

impl ToSql<sql::Ts, Sqlite> for DbTime {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        out.set_value(talent_domain::timefmt::format(self.0));
        Ok(IsNull::No)
    }
}

impl FromSql<sql::Ts, Sqlite> for DbTime {
    fn from_sql(value: diesel::sqlite::SqliteValue<'_, '_, '_>) -> deserialize::Result<Self> {
        let s = <String as FromSql<diesel::sql_types::Text, Sqlite>>::from_sql(value)?;
        talent_domain::timefmt::parse(&s).map(DbTime).ok_or_else(|| format!("bad timestamp '{s}'").into())
    }
}
