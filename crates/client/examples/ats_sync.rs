//! An ATS keeping an exact copy of its talent pool (docs/sync.md): the checkpoint first, then
//! the initial load in one pass (`status=any`), then the events feed from the checkpoint, in
//! sequence order, forever. Run against `make run`'s demo:
//!
//! ```sh
//! cargo run -p talent-client --example ats_sync -- http://127.0.0.1:8080 tk_...
//! ```
//!
//! The copy lives in memory here; a real ATS stores each change and the sequence in one
//! database transaction, so that after a crash it resumes exactly where it stopped.

use std::collections::HashMap;
use std::time::Duration;
use talent_client::events::{EventData, EventQuery};
use talent_client::models::{Person, PersonQuery};
use talent_client::{Client, Error};
use uuid::Uuid;

/// The ATS's copy and its checkpoint.
#[derive(Default)]
struct Pool {
    persons: HashMap<Uuid, Person>,
    /// The sequence of the last event applied: the feed's `after`.
    after: u64,
}

impl Pool {
    /// Applies one event. Person events carry the whole Person as of their commit, so applying
    /// them in sequence order leaves exactly the current Person.
    fn apply(&mut self, data: EventData) {
        match data {
            EventData::PersonCreated(p) | EventData::PersonJoined(p) => {
                self.persons.insert(p.id, p);
            }
            EventData::PersonUpdated { person, previous_attributes } => {
                let changed: Vec<&String> = previous_attributes.keys().collect();
                println!("{} changed {changed:?}", person.email);
                self.persons.insert(person.id, person);
            }
            EventData::PersonArchived { person, archive_reason } => {
                println!("{} archived ({archive_reason})", person.email);
                self.persons.insert(person.id, person);
            }
            EventData::AssessmentCompleted(a) => println!("{} completed an assessment: read its results", a.email),
            // Types this ATS does not use, and types newer than this client: ignored.
            _ => {}
        }
    }
}

/// The sequence of the feed's last event now (0 when it is empty).
fn feed_end(api: &Client) -> Result<u64, Error> {
    let mut after = 0;
    loop {
        let page = api.list_events(after, &EventQuery { types: vec![], limit: Some(100) })?;
        after = page.data.last().map_or(after, |e| e.sequence);
        if !page.pagination.has_more {
            return Ok(after);
        }
    }
}

impl Pool {
    /// Reads the feed from the checkpoint to its end; returns how many events were applied.
    fn follow(&mut self, api: &Client) -> Result<usize, Error> {
        let mut n = 0;
        loop {
            let page = api.list_events(self.after, &EventQuery { types: vec![], limit: Some(100) })?;
            for e in &page.data {
                self.apply(e.typed());
                self.after = e.sequence;
                n += 1;
            }
            if !page.pagination.has_more {
                return Ok(n);
            }
        }
    }
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().collect();
    let (base, key) = match args.as_slice() {
        [_, base, key] => (base.clone(), key.clone()),
        _ => {
            eprintln!("usage: ats_sync <base url> <api key>");
            std::process::exit(2);
        }
    };
    let api = Client::new(&base, &key);
    // 1. The checkpoint: the feed's end, read before the load (the load then sees at least
    //    everything up to it; what it sees of later changes, the feed applies again).
    let mut copy = Pool { after: feed_end(&api)?, ..Default::default() };

    // 2. The initial load: every person, active and archived, in one keyset-paginated pass.
    let everyone = PersonQuery { status: Some("any".into()), limit: Some(100), ..Default::default() };
    for p in api.persons(everyone) {
        let p = p?;
        copy.persons.insert(p.id, p);
    }
    println!("loaded {} persons; following the feed after {}", copy.persons.len(), copy.after);

    // 3. The feed from the checkpoint, every few seconds (or whenever a webhook arrives).
    loop {
        let n = copy.follow(&api)?;
        if n > 0 {
            println!("applied {n} events; {} persons; checkpoint {}", copy.persons.len(), copy.after);
        }
        std::thread::sleep(Duration::from_secs(5));
    }
}
