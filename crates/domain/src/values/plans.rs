//! Subscriptions and plans (D4, D5, D7).

/// Subscription status (spec, Organization.subscription.status).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SubscriptionStatus {
    /// `trialing`
    Trialing,
    /// `trial_expired`
    TrialExpired,
    /// `needs_plan`
    NeedsPlan,
    /// `active`
    Active,
    /// `past_due`
    PastDue,
    /// `canceled`
    Canceled,
}

impl SubscriptionStatus {
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        Ok(match s {
            "trialing" => Self::Trialing,
            "trial_expired" => Self::TrialExpired,
            "needs_plan" => Self::NeedsPlan,
            "active" => Self::Active,
            "past_due" => Self::PastDue,
            "canceled" => Self::Canceled,
            _ => return Err("must be one of: trialing, trial_expired, needs_plan, active, past_due, canceled".into()),
        })
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Trialing => "trialing",
            Self::TrialExpired => "trial_expired",
            Self::NeedsPlan => "needs_plan",
            Self::Active => "active",
            Self::PastDue => "past_due",
            Self::Canceled => "canceled",
        }
    }
    /// D4: writes are allowed while `trialing`, `active` or `past_due`.
    pub fn allows_writes(self) -> bool {
        matches!(self, Self::Trialing | Self::Active | Self::PastDue)
    }
}

/// A plan of the catalogue (D5) with its limits and rate budgets (D7).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Plan {
    /// Plan id as shown in `subscription.plan`, e.g. `business`.
    pub id: String,
    /// Whether keys of this plan may use the API at all (else 403 `plan_upgrade_required`).
    pub api_access: bool,
    /// Person limit (active persons).
    pub person_limit: u32,
    /// Profile limit.
    pub profile_limit: u32,
    /// Requests per minute per organization under D7 (Set A).
    pub org_rpm: u32,
    /// Requests per minute per key under D7 (Set A).
    pub key_rpm: u32,
    /// Requests per minute per organization under Set B (`TALENT_RATE_LIMIT_MODE=org-only`).
    pub org_only_rpm: u32,
}

/// The plan catalogue (configuration; D5 gives the defaults).
#[derive(Clone, Debug)]
pub struct PlanCatalogue {
    plans: Vec<Plan>,
}

impl Default for PlanCatalogue {
    /// D5 and D7: `starter` (no API; 50 persons, 3 profiles), `professional` (500, 25; 120/60 rpm,
    /// Set B 60), `business` (5,000, 250; 600/300 rpm, Set B 300). Starter keys are refused before
    /// any work; they are rate-limited with the professional figures.
    fn default() -> Self {
        let p = |id: &str, api: bool, persons, profiles, org, key, org_only| Plan {
            id: id.into(),
            api_access: api,
            person_limit: persons,
            profile_limit: profiles,
            org_rpm: org,
            key_rpm: key,
            org_only_rpm: org_only,
        };
        PlanCatalogue {
            plans: vec![
                p("starter", false, 50, 3, 120, 60, 60),
                p("professional", true, 500, 25, 120, 60, 60),
                p("business", true, 5_000, 250, 600, 300, 300),
            ],
        }
    }
}

impl Plan {
    /// D6: the seats (active persons) of an organization on `plan`; a plan missing from the
    /// catalogue has none.
    pub fn seats(plan: Option<&Plan>) -> u32 {
        plan.map_or(0, |p| p.person_limit)
    }

    /// D6: one more active person fits while `used` is below [`Plan::seats`]. The one place the
    /// person limit is decided (import, invitation creation, acceptance; issue 14, point 4).
    /// Errors: 409 `person_limit_reached` with `details {used, limit, plan}` (`plan_id`: the
    /// organization's plan id as stored).
    pub fn require_seat(plan: Option<&Plan>, plan_id: &str, used: u32) -> Result<(), crate::errors::ClientError> {
        let limit = Plan::seats(plan);
        if used < limit {
            return Ok(());
        }
        Err(crate::errors::ClientError::new(
            crate::errors::Code::PersonLimitReached,
            format!("The plan's person limit of {limit} is reached; archive persons or upgrade"),
        )
        .with_details(serde_json::json!({"used": used, "limit": limit, "plan": plan_id})))
    }
}

impl PlanCatalogue {
    /// Builds a catalogue from plans.
    pub fn new(plans: Vec<Plan>) -> Self {
        Self { plans }
    }
    /// Looks a plan up by id.
    pub fn get(&self, id: &str) -> Option<&Plan> {
        self.plans.iter().find(|p| p.id == id)
    }
    /// The plan ids, for messages.
    pub fn ids(&self) -> Vec<&str> {
        self.plans.iter().map(|p| p.id.as_str()).collect()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn subscription_write_rule_is_d4() {
        use SubscriptionStatus::*;
        for s in [Trialing, Active, PastDue] {
            assert!(s.allows_writes());
        }
        for s in [TrialExpired, NeedsPlan, Canceled] {
            assert!(!s.allows_writes());
        }
    }

    /// D6: a seat is free while fewer than the plan's persons are active; a plan missing from the
    /// catalogue has no seats; the error names used, limit and plan.
    #[test]
    fn a_seat_is_free_below_the_person_limit() {
        let plan = PlanCatalogue::default().get("professional").cloned().unwrap();
        assert_eq!(Plan::require_seat(Some(&plan), "professional", plan.person_limit - 1), Ok(()));
        let e = Plan::require_seat(Some(&plan), "professional", plan.person_limit).unwrap_err();
        assert_eq!(e.code, crate::errors::Code::PersonLimitReached);
        assert_eq!(e.details.unwrap()["limit"], plan.person_limit);
        assert_eq!(Plan::seats(None), 0);
        assert!(Plan::require_seat(None, "gone", 0).is_err());
    }
}
