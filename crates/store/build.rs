//! Rebuilds the store when a migration is added or changed: `embed_migrations!` reads
//! `migrations/` at compile time, and without this a new migration folder left binaries built
//! with the old set (as diesel_migrations' documentation advises).
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
