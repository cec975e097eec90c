//! How instances wake one another on PostgreSQL (T60, T63, T294): the channels, the task that
//! announces this instance's due deliveries after commit, and the listener that hears the others'.

use crate::pipeline::PgPipe;
use crate::{Backend, DbStore, Pools};
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// The PostgreSQL channel on which committed transactions announce due deliveries (T60).
pub const WAKE_CHANNEL: &str = "talent_deliveries";

/// The least time between two `NOTIFY`s on [`WAKE_CHANNEL`] from one instance (T294): the commits
/// that made deliveries due meanwhile are announced together. Inside each such transaction, the
/// `NOTIFY` made its commit take PostgreSQL's database-wide notification lock, so commits
/// with a live endpoint queued one behind the other.
pub const PEER_WAKE_SPACING: Duration = Duration::from_millis(10);
/// The PostgreSQL channel on which committed transactions announce changed keys or organizations
/// (the authentication cache, T63).
pub const AUTH_CHANNEL: &str = "talent_auth";

impl DbStore {
    /// The delivery engine's wake-up (T60): notified (`notify_one`, so a wake-up that comes while
    /// the engine is busy is kept) after every committed transaction that called
    /// `WebhookRepo::wake_deliveries` on this instance, and, on PostgreSQL once [`DbStore::listen`] runs,
    /// after such a transaction on any instance (`LISTEN talent_deliveries`).
    pub fn delivery_wakeups(&self) -> Arc<Notify> {
        self.wake.clone()
    }

    /// PostgreSQL: spawns the task that tells the other instances, with `NOTIFY` on
    /// [`WAKE_CHANNEL`] (payload: this instance's name), that a commit made deliveries due: once
    /// after the first such commit, then at most once per [`PEER_WAKE_SPACING`] for the commits
    /// since (T294). A notification that cannot be sent is dropped (logged at `debug`): the
    /// others' engines claim on their own poll (1 s) too. A crash between a commit and its
    /// notification likewise leaves the others to their poll.
    fn tell_peers(&self) {
        let (Pools::Pg(pool), peers) = (self.pools.clone(), self.peers.clone()) else { return };
        let notify = format!("NOTIFY {WAKE_CHANNEL}, '{}'", self.instance);
        tokio::spawn(async move {
            loop {
                peers.notified().await;
                let sent = match pool.get().await {
                    Ok(c) => {
                        let mut pipe = PgPipe::new(&c);
                        pipe.defer_sql(notify.clone());
                        pipe.flush().await.map_err(|e| e.to_string())
                    }
                    Err(e) => Err(e.to_string()),
                };
                if let Err(e) = sent {
                    tracing::debug!(error = %e, "a delivery wake-up for the other instances was not sent");
                }
                tokio::time::sleep(PEER_WAKE_SPACING).await;
            }
        });
    }

    /// On PostgreSQL, spawns the task that `LISTEN`s on [`WAKE_CHANNEL`] and [`AUTH_CHANNEL`] on a
    /// connection of its own: a delivery notification wakes [`DbStore::delivery_wakeups`], an
    /// authentication one empties the authentication cache (T63). It reconnects after a lost
    /// connection (1 s, doubling to 30 s); on every (re)connection it wakes the engine and empties
    /// the cache, since notifications sent meanwhile are lost (the cache's 1 s TTL bounds the
    /// staleness until then). On SQLite (one process) it does nothing.
    pub fn listen(&self) {
        if self.backend() != Backend::Postgres {
            return;
        }
        self.tell_peers();
        let (url, wake, auth) = (self.url.clone(), self.wake.clone(), self.auth.clone());
        let own = self.instance.clone();
        tokio::spawn(async move {
            use futures_util::StreamExt;
            let mut backoff = Duration::from_secs(1);
            loop {
                match AsyncPgConnection::establish(&url).await {
                    Ok(mut conn) => {
                        let listen = format!("LISTEN {WAKE_CHANNEL}; LISTEN {AUTH_CHANNEL}");
                        if conn.batch_execute(&listen).await.is_ok() {
                            backoff = Duration::from_secs(1);
                            wake.notify_one();
                            auth.invalidate();
                            let mut stream = std::pin::pin!(conn.notifications_stream());
                            while let Some(n) = stream.next().await {
                                match n {
                                    // This process's own commit: already acted on.
                                    Ok(n) if *n.payload == *own => {}
                                    Ok(n) if n.channel == AUTH_CHANNEL => auth.invalidate(),
                                    Ok(_) => wake.notify_one(),
                                    Err(_) => break,
                                }
                            }
                        }
                        tracing::warn!("the PostgreSQL notification listener lost its connection; reconnecting");
                    }
                    Err(e) => tracing::warn!(error = %e, "the PostgreSQL notification listener cannot connect"),
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
        });
    }
}
