//! The schema, written by hand for both backends (migrations/postgres and migrations/sqlite create
//! the same tables).
#![allow(missing_docs)]

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    organizations (id) {
        id -> Uuid,
        company_name -> Text,
        email -> Text,
        plan -> Text,
        subscription_status -> Text,
        trial_ends_at -> Nullable<Ts>,
        current_period_end -> Nullable<Ts>,
        employee_domains -> Text,
        created_at -> Ts,
        updated_at -> Ts,
        test_of -> Nullable<Uuid>,
        locale -> Text,
        time_zone -> Text,
        redirect_hosts -> Text,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    users (id) {
        id -> Uuid,
        org_id -> Uuid,
        email -> Text,
        role -> Text,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    api_keys (id) {
        id -> Uuid,
        user_id -> Uuid,
        org_id -> Uuid,
        name -> Nullable<Text>,
        prefix -> Text,
        hash -> Binary,
        scopes -> Text,
        expires_at -> Nullable<Ts>,
        revoked_at -> Nullable<Ts>,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    humans (id) {
        id -> Uuid,
        email -> Text,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    persons (id) {
        id -> Uuid,
        org_id -> Uuid,
        human_id -> Uuid,
        email -> Text,
        first_name -> Nullable<Text>,
        last_name -> Nullable<Text>,
        external_id -> Nullable<Text>,
        status -> Text,
        archive_reason -> Nullable<Text>,
        label_candidate -> Bool,
        label_employee -> Bool,
        tags -> Text,
        joined_via -> Text,
        shared_existing_profile -> Bool,
        assessment_status -> Text,
        assessment_completed_at -> Nullable<Ts>,
        assessment_count -> BigInt,
        member_since -> Ts,
        updated_at -> Ts,
        archived_at -> Nullable<Ts>,
        search_text -> Text,
        inactive_periods -> Text,
        need_totals -> Nullable<Text>,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    tags (id) {
        id -> Uuid,
        org_id -> Uuid,
        name -> Text,
        name_key -> Text,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::Uuid;
    person_tags (person_id, tag_id) {
        person_id -> Uuid,
        tag_id -> Uuid,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    teams (id) {
        id -> Uuid,
        org_id -> Uuid,
        name -> Text,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    team_members (team_id, person_id) {
        team_id -> Uuid,
        person_id -> Uuid,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    outbox_events (id) {
        id -> Uuid,
        org_id -> Uuid,
        event_type -> Text,
        data -> Text,
        created_at -> Ts,
        sequence -> Nullable<BigInt>,
        request_id -> Nullable<Text>,
    }
}

diesel::table! {
    /// One row: the lock that event sequencers take turns on (T106).
    event_sequence (id) {
        id -> Integer,
        last -> BigInt,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::Uuid;
    /// The last event sequence number given in each organization (D56).
    org_event_sequences (org_id) {
        org_id -> Uuid,
        last -> BigInt,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    idempotency_keys (org_id, path, key) {
        org_id -> Uuid,
        path -> Text,
        key -> Text,
        request_hash -> Text,
        response_status -> Nullable<Integer>,
        response_body -> Nullable<Text>,
        existing_resource -> Bool,
        created_at -> Ts,
    }
}

diesel::table! {
    settings (name) {
        name -> Text,
        value -> Text,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    assessments (id) {
        id -> Uuid,
        human_id -> Uuid,
        state -> Text,
        started_at -> Ts,
        completed_at -> Nullable<Ts>,
        responses -> Text,
        need_counts -> Nullable<Text>,
        origin_org_id -> Nullable<Uuid>,
        accommodations -> Nullable<Text>,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    profiles (id) {
        id -> Uuid,
        org_id -> Uuid,
        name -> Text,
        description -> Nullable<Text>,
        competencies -> Text,
        created_at -> Ts,
        updated_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    invitations (id) {
        id -> Uuid,
        org_id -> Uuid,
        email -> Text,
        first_name -> Nullable<Text>,
        last_name -> Nullable<Text>,
        external_id -> Nullable<Text>,
        person_id -> Nullable<Uuid>,
        status -> Text,
        labels -> Nullable<Text>,
        tags -> Nullable<Text>,
        variant -> Text,
        message -> Nullable<Text>,
        send_email -> Bool,
        token_hash -> Binary,
        email_sent_at -> Nullable<Ts>,
        reminder_sent_at -> Nullable<Ts>,
        expires_at -> Ts,
        accepted_at -> Nullable<Ts>,
        revoked_at -> Nullable<Ts>,
        created_at -> Ts,
        updated_at -> Ts,
        locale -> Nullable<Text>,
        time_zone -> Nullable<Text>,
        accommodations -> Nullable<Text>,
        redirect_url -> Nullable<Text>,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    emails (id) {
        id -> Uuid,
        org_id -> Uuid,
        invitation_id -> Nullable<Uuid>,
        to_address -> Text,
        subject -> Text,
        body -> Text,
        invitation_url -> Nullable<Text>,
        sent_at -> Nullable<Ts>,
        attempts -> BigInt,
        last_error -> Nullable<Text>,
        next_attempt_at -> Ts,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    webhook_endpoints (id) {
        id -> Uuid,
        org_id -> Uuid,
        url -> Text,
        events -> Text,
        description -> Nullable<Text>,
        enabled -> Bool,
        secret -> Text,
        previous_secret -> Nullable<Text>,
        previous_secret_expires_at -> Nullable<Ts>,
        consecutive_failures -> BigInt,
        created_at -> Ts,
        updated_at -> Ts,
        breaker_failures -> BigInt,
        breaker_open_until -> Nullable<Ts>,
        failing_since -> Nullable<Ts>,
        kind -> Text,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::Uuid;
    /// The number of an organization's last change of its webhook endpoints that the fan-out
    /// sees (T272).
    webhook_endpoint_versions (org_id) {
        org_id -> Uuid,
        version -> BigInt,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    deliveries (id) {
        id -> Uuid,
        endpoint_id -> Uuid,
        org_id -> Uuid,
        event_type -> Text,
        payload -> Text,
        status -> Text,
        attempts -> BigInt,
        next_attempt_at -> Nullable<Ts>,
        last_attempt_at -> Nullable<Ts>,
        last_response_status -> Nullable<Integer>,
        last_error -> Nullable<Text>,
        claimed_until -> Nullable<Ts>,
        created_at -> Ts,
        request_id -> Nullable<Text>,
        event_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    delivery_attempts (delivery_id, seq) {
        delivery_id -> Uuid,
        seq -> BigInt,
        attempted_at -> Ts,
        response_status -> Nullable<Integer>,
        duration_ms -> BigInt,
        error -> Nullable<Text>,
        response_body -> Nullable<Text>,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::Uuid;
    /// Active persons per organization, kept by triggers on `persons` (T69); the count is
    /// `SUM(n)` over an organization's rows.
    org_active_persons (org_id, shard) {
        org_id -> Uuid,
        shard -> Integer,
        n -> BigInt,
    }
}

diesel::joinable!(api_keys -> users (user_id));
diesel::joinable!(api_keys -> organizations (org_id));
diesel::joinable!(person_tags -> persons (person_id));
diesel::joinable!(person_tags -> tags (tag_id));

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    consent_codes (id) {
        id -> Uuid,
        invitation_id -> Uuid,
        code_hash -> Binary,
        tries -> BigInt,
        used_at -> Nullable<Ts>,
        expires_at -> Ts,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    sign_in_links (id) {
        id -> Uuid,
        email -> Text,
        token_hash -> Binary,
        used_at -> Nullable<Ts>,
        expires_at -> Ts,
        created_at -> Ts,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    dashboard_sessions (id) {
        id -> Uuid,
        user_id -> Uuid,
        token_hash -> Binary,
        expires_at -> Ts,
        created_at -> Ts,
    }
}

diesel::joinable!(dashboard_sessions -> users (user_id));

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    ats_connections (id) {
        id -> Uuid,
        org_id -> Uuid,
        ats -> Text,
        name -> Text,
        enabled -> Bool,
        base_url -> Nullable<Text>,
        api_key -> Nullable<Text>,
        integration_id -> Nullable<Text>,
        webhook_secret -> Nullable<Text>,
        api_key_id -> Uuid,
        created_at -> Ts,
        updated_at -> Ts,
        last_activity_at -> Nullable<Ts>,
        endpoint_id -> Nullable<Uuid>,
        key_value -> Nullable<Text>,
        locale -> Nullable<Text>,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    ats_orders (id) {
        id -> Uuid,
        org_id -> Uuid,
        connection_id -> Uuid,
        test_id -> Text,
        person_id -> Uuid,
        invitation_id -> Uuid,
        ats_key -> Text,
        candidate_ref -> Nullable<Text>,
        application_ref -> Nullable<Text>,
        job_ref -> Nullable<Text>,
        job_name -> Nullable<Text>,
        profile_url -> Nullable<Text>,
        ats_order_ref -> Nullable<Text>,
        callback_url -> Nullable<Text>,
        status -> Text,
        assessment_id -> Nullable<Uuid>,
        created_at -> Ts,
        updated_at -> Ts,
        started_at -> Nullable<Ts>,
        completed_at -> Nullable<Ts>,
        report_token_hash -> Nullable<Binary>,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    ats_report_openings (id) {
        id -> Uuid,
        order_id -> Uuid,
        opened_at -> Ts,
        client_ip -> Text,
        user_agent -> Nullable<Text>,
        pdf -> Bool,
    }
}

diesel::table! {
    use diesel::sql_types::*;
    use crate::types::sql::{Uuid, Ts};
    ats_errors (id) {
        id -> Uuid,
        connection_id -> Uuid,
        api_call -> Text,
        errors -> Text,
        order_id -> Nullable<Uuid>,
        created_at -> Ts,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    ats_connections,
    ats_orders,
    ats_errors,
    ats_report_openings,
    sign_in_links,
    dashboard_sessions,
    event_sequence,
    org_event_sequences,
    consent_codes,
    organizations,
    users,
    api_keys,
    humans,
    persons,
    tags,
    person_tags,
    teams,
    team_members,
    outbox_events,
    idempotency_keys,
    settings,
    assessments,
    profiles,
    invitations,
    emails,
    webhook_endpoints,
    webhook_endpoint_versions,
    deliveries,
    delivery_attempts,
    org_active_persons,
);
