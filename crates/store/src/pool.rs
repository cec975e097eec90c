//! The connection pools' manager: diesel-async's, except that its liveness check (a `SELECT 1`
//! round trip at every checkout) is skipped for a connection checked out less than [`FRESH`] ago
//! (T66). Under load every checkout found a connection used a few milliseconds earlier, and the
//! check was one statement in every fifteen an import sent to PostgreSQL. A connection that broke
//! during its last use is still never handed out (`is_broken`), and one idle for longer is checked
//! as before, so a database restart costs at most the requests already under way.

use deadpool::managed::{Manager, Metrics, RecycleResult};
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, PoolError, PoolableConnection};
use std::time::Duration;

/// A checkout within this long of the previous one skips the liveness check.
pub const FRESH: Duration = Duration::from_secs(1);

/// A pool of `C` managed by [`Recent`].
pub type Pool<C> = deadpool::managed::Pool<Recent<C>>;

/// diesel-async's connection manager with the liveness check skipped for recently used
/// connections (see the module doc).
pub struct Recent<C>(pub AsyncDieselConnectionManager<C>);

impl<C> Manager for Recent<C>
where
    C: PoolableConnection + Send + 'static,
    AsyncDieselConnectionManager<C>: Manager<Type = C, Error = PoolError>,
{
    type Type = C;
    type Error = PoolError;

    async fn create(&self) -> Result<C, PoolError> {
        self.0.create().await
    }

    async fn recycle(&self, conn: &mut C, metrics: &Metrics) -> RecycleResult<PoolError> {
        if metrics.last_used() < FRESH && !conn.is_broken() && !std::thread::panicking() {
            return Ok(());
        }
        self.0.recycle(conn, metrics).await
    }
}
