//! [`OutboxRepo`] on the fake: the event outbox and the feed's sequences.

use super::{all, ok, FakeState, FakeTx};
use crate::events::{OutboxEvent, SequencedEvent};
use crate::ids::{EventId, OrgId};
use crate::ports::{BoxFuture, FeedQuery, OutboxRepo, StoreResult};

impl OutboxRepo for FakeTx {
    fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>> {
        self.s.events.push(e.clone());
        ok(())
    }
    fn list_events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>> {
        ok(all(&self.s.events, |e| e.org_id == org))
    }
    fn has_unsequenced_events(&mut self) -> BoxFuture<'_, StoreResult<bool>> {
        let s = &self.s;
        ok(s.events.iter().any(|e| sequence_of(s, e.id).is_none()))
    }
    fn sequence_events(&mut self, limit: u32) -> BoxFuture<'_, StoreResult<u32>> {
        // Writes are serialized (one write turn at a time) and commit in turn order.
        let s = &self.s;
        let mut todo: Vec<&OutboxEvent> = s.events.iter().filter(|e| sequence_of(s, e.id).is_none()).collect();
        todo.sort_by_key(|e| (e.created_at, e.id.0));
        let ids: Vec<(EventId, OrgId)> = todo.into_iter().take(limit as usize).map(|e| (e.id, e.org_id)).collect();
        let s = &mut self.s;
        for (id, org) in &ids {
            let n = s.last_sequence.entry(*org).or_insert(0);
            *n += 1;
            s.event_sequences.push((*id, *n));
        }
        ok(ids.len() as u32)
    }
    fn event_sequences<'a>(&'a mut self, ids: &'a [EventId]) -> BoxFuture<'a, StoreResult<Vec<(EventId, u64)>>> {
        let s = &self.s;
        ok(ids
            .iter()
            .filter(|id| s.events.iter().any(|e| e.id == **id))
            .filter_map(|id| Some((*id, sequence_of(s, *id)?)))
            .collect())
    }
    fn list_feed<'a>(&'a mut self, q: &'a FeedQuery) -> BoxFuture<'a, StoreResult<Vec<SequencedEvent>>> {
        let s = &self.s;
        let mut v: Vec<SequencedEvent> = s
            .events
            .iter()
            .filter(|e| e.org_id == q.org_id && (q.types.is_empty() || q.types.contains(&e.event_type)))
            .filter_map(|e| {
                let n = sequence_of(s, e.id)?;
                (n > q.after).then(|| SequencedEvent { sequence: n, event: e.clone() })
            })
            .collect();
        v.sort_by_key(|e| e.sequence);
        v.truncate(q.limit as usize);
        ok(v)
    }
}

/// The feed sequence of event `id`, once the sequencer numbered it.
fn sequence_of(s: &FakeState, id: EventId) -> Option<u64> {
    s.event_sequences.iter().find(|(e, _)| *e == id).map(|(_, n)| *n)
}
