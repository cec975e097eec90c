//! The goals of `make bench` and whether each held in this run. Issue 38 asks that one
//! `make bench` show every goal on the machine of the run; the figures are printed as each
//! scenario measures them, far apart in a long output. Each scenario also reports its figures
//! here with [`at_least`] or [`below`], and [`print`] lists them together at the end, the goals
//! not held first (T302). The goals are listed in `docs/performance.md` ("`make bench`").

use std::sync::Mutex;

/// One goal's figure in this run.
struct Outcome {
    /// `SQLite` or `PostgreSQL`.
    backend: String,
    /// What was measured, e.g. `GET /api/v1/me beside the reference`.
    what: String,
    /// The figure and its goal, e.g. `0.59 (goal >= 0.70)`.
    figure: String,
    held: bool,
}

/// The goals checked, in the order the scenarios ran.
#[derive(Default)]
struct Goals(Vec<Outcome>);

impl Goals {
    fn check(&mut self, backend: &str, what: &str, (value, op, goal, unit): (f64, &str, f64, &str), held: bool) {
        let figure = format!("{}{unit} (goal {op} {}{unit})", apart(value, goal), number(goal));
        self.0.push(Outcome { backend: backend.to_string(), what: what.to_string(), figure, held });
    }

    fn summary(&self) -> String {
        if self.0.is_empty() {
            return String::new();
        }
        let held = self.0.iter().filter(|o| o.held).count();
        let mut out = format!("\n== Goals: {held} of {} held on this machine in this run ==\n", self.0.len());
        for want in [false, true] {
            for o in self.0.iter().filter(|o| o.held == want) {
                let mark = if o.held { "held    " } else { "NOT HELD" };
                out.push_str(&format!("{mark}  {:<10}  {}: {}\n", o.backend, o.what, o.figure));
            }
        }
        out
    }
}

/// Every goal checked so far in this process.
static GOALS: Mutex<Goals> = Mutex::new(Goals(Vec::new()));

fn goals() -> std::sync::MutexGuard<'static, Goals> {
    GOALS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Records the goal `what` on `backend`: `value` against `goal`, met when `value >= goal`.
/// `unit` follows both numbers (`""` for a ratio, `" per s"`).
pub fn at_least(backend: &str, what: &str, value: f64, goal: f64, unit: &str) {
    goals().check(backend, what, (value, ">=", goal, unit), value >= goal);
}

/// Records the goal `what` on `backend`: `value` against `goal`, met when `value < goal`.
/// `unit` follows both numbers (`" ms"`, `" MiB"`).
pub fn below(backend: &str, what: &str, value: f64, goal: f64, unit: &str) {
    goals().check(backend, what, (value, "<", goal, unit), value < goal);
}

/// A figure as the summary writes it: two decimals below 10, whole numbers from 10.
fn number(v: f64) -> String {
    if v.abs() < 10.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.0}")
    }
}

/// `value` as [`number`] writes it, with more decimals (up to six) when it would print as `goal`
/// does although it differs: a median of 0.697 against 0.7 reads `0.697`, not `0.70`, and 9,999.6
/// per s against 10,000 reads `9999.6` (T314).
fn apart(value: f64, goal: f64) -> String {
    let plain = number(value);
    if value == goal || plain != number(goal) {
        return plain;
    }
    let first = if value.abs() < 10.0 { 3 } else { 1 };
    (first..=6).map(|d| (format!("{value:.d$}"), format!("{goal:.d$}"))).find(|(v, g)| v != g).map_or(plain, |(v, _)| v)
}

/// Prints every goal checked: a count, then the goals not held, then those held, one line
/// each. Nothing when no scenario checked a goal.
pub fn print() {
    print!("{}", goals().summary());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_the_goals_and_lists_those_not_held_first() {
        let mut g = Goals::default();
        assert_eq!(g.summary(), "");
        g.check("SQLite", "GET /api/v1/me beside the reference", (0.59, ">=", 0.7, ""), false);
        g.check("PostgreSQL", "lists, slowest shape p99", (4.4, "<", 50.0, " ms"), true);
        g.check("SQLite", "POST /api/v1/persons", (12_294.0, ">=", 10_000.0, " per s"), true);
        let s = g.summary();
        assert!(s.contains("== Goals: 2 of 3 held on this machine in this run =="), "{s}");
        let not_held = s.find("NOT HELD  SQLite      GET /api/v1/me beside the reference: 0.59 (goal >= 0.70)");
        let held = s.find("held      PostgreSQL  lists, slowest shape p99: 4.40 ms (goal < 50 ms)");
        assert!(not_held.is_some() && held.is_some() && not_held < held, "{s}");
        assert!(s.contains("POST /api/v1/persons: 12294 per s (goal >= 10000 per s)"), "{s}");
    }

    #[test]
    fn a_figure_that_would_print_as_its_goal_gets_the_decimals_that_tell_them_apart() {
        let mut g = Goals::default();
        g.check("SQLite", "GET /api/v1/me", (0.6977, ">=", 0.7, ""), false);
        g.check("SQLite", "imports", (9_999.6, ">=", 10_000.0, " per s"), false);
        g.check("SQLite", "GET /healthz", (0.9, ">=", 0.9, ""), true);
        g.check("SQLite", "lists", (4.4, "<", 50.0, " ms"), true);
        let s = g.summary();
        assert!(s.contains("GET /api/v1/me: 0.698 (goal >= 0.70)"), "{s}");
        assert!(s.contains("imports: 9999.6 per s (goal >= 10000 per s)"), "{s}");
        assert!(s.contains("GET /healthz: 0.90 (goal >= 0.90)"), "{s}");
        assert!(s.contains("lists: 4.40 ms (goal < 50 ms)"), "{s}");
    }

    #[test]
    fn a_goal_is_held_by_the_comparison_it_names() {
        at_least("SQLite", "a ratio at its goal", 0.7, 0.7, "");
        below("SQLite", "a latency at its goal", 50.0, 50.0, " ms");
        let s = goals().summary();
        assert!(s.contains("held      SQLite      a ratio at its goal: 0.70 (goal >= 0.70)"), "{s}");
        assert!(s.contains("NOT HELD  SQLite      a latency at its goal: 50 ms (goal < 50 ms)"), "{s}");
    }
}
