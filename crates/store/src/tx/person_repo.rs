//! [`PersonRepo`] on both backends (persons, humans, tags and teams): one body, compiled for PostgreSQL and SQLite.

use super::*;

/// A person lookup whose row a use case may update next.
pub(super) enum PersonKey {
    Human(HumanId),
    Id(OrgId, PersonId),
    AnyOrg(PersonId),
}

/// The query of a person by email, on either backend.
macro_rules! person_by_email {
    ($org:expr, $email:expr) => {
        persons::table
            .filter(persons::org_id.eq(DbUuid($org.0)))
            .filter(persons::email.eq($email.as_str().to_string()))
            .select(PersonRow::as_select())
    };
}

impl DbTx<'_, PgPipe<'_>> {
    /// PostgreSQL's trigger counts an inserted person (T69): nothing to do here.
    pub(super) async fn count_inserted(&mut self, _p: &Person) -> StoreResult<()> {
        Ok(())
    }

    /// In a write transaction, `SELECT ... FOR UPDATE` of the person row a use case reads to
    /// update: without it, a concurrent patch and archive of one person both commit and the last
    /// writer silently undoes the other (an archived person back to active, D13 bypassed).
    pub(super) async fn lock_person_row(&mut self, key: PersonKey) -> StoreResult<()> {
        if !self.write {
            return Ok(());
        }
        let q = persons::table.select(persons::id);
        let human = match key {
            PersonKey::Id(org, id) => {
                let q = q.filter(persons::id.eq(DbUuid(id.0))).filter(persons::org_id.eq(DbUuid(org.0)));
                return self.lock_rows(q.for_update()).await;
            }
            PersonKey::AnyOrg(id) => {
                // Lookups outside one organization are the human-level use cases' (assessments,
                // which go on to `persons_of_human`): lock every membership of the human, in the
                // id order `PersonKey::Human` uses. Locking this row alone first let two such
                // transactions on two memberships of one human deadlock.
                let human = self.load_one(persons::table.find(DbUuid(id.0)).select(persons::human_id), |_, h| Ok(h));
                let Some(human) = human.await? else { return Ok(()) };
                human
            }
            PersonKey::Human(h) => DbUuid(h.0),
        };
        self.lock_rows(q.filter(persons::human_id.eq(human)).order(persons::id.asc()).for_update()).await
    }

    /// [`PersonRepo::lock_import_target`]: the organization's lock with its endpoints version,
    /// the person's lock and the count of active persons sent together with whatever writes wait
    /// on the pipe, in one round trip (T266). PostgreSQL runs them in order: the person is read
    /// once the organization's lock is held. The organization's webhook endpoints (which the
    /// import's event fans out to) come from the store's cache at that version, or are read in a
    /// second round trip (T272).
    pub(super) async fn import_target_impl(
        &mut self,
        org: OrgId,
        email: &Email,
        exclusive: bool,
    ) -> StoreResult<Option<ImportTarget>> {
        let o = organizations::table.find(DbUuid(org.0)).select((OrgRow::as_select(), endpoints_version!(org)));
        type Found = Vec<(OrgRow, Option<i64>)>;
        let orgs: futures_util::future::BoxFuture<'_, diesel::QueryResult<Found>> =
            if exclusive { Box::pin(o.for_update().load(self.conn)) } else { Box::pin(o.for_share().load(self.conn)) };
        let person = person_by_email!(org, email).for_update().load::<PersonRow>(self.conn);
        // Sent in this order. The count (its organization's rows of a table with one index)
        // keeps its plan (T269); the person's lookup must not, and comes first so that one `SET`
        // switches.
        self.keep_next_plan();
        let counts = org_active_persons::table
            .filter(org_active_persons::org_id.eq(DbUuid(org.0)))
            .select(org_active_persons::n)
            .load::<i64>(self.conn);
        // The error of the first statement that failed, in the order sent (`pipeline::in_order`).
        let (orgs, persons, counts) = futures_util::future::join3(orgs, person, counts).await;
        let (orgs, persons, counts) = (orgs.map_err(db_err)?, persons.map_err(db_err)?, counts.map_err(db_err)?);
        let Some((o, version)) = orgs.into_iter().next() else { return Ok(None) };
        self.endpoints_at(org, version).await?;
        let person = persons.into_iter().next().map(Person::try_from).transpose()?;
        Ok(Some(ImportTarget { org: Organization::try_from(o)?, person, active: active_of_shards(&counts) }))
    }

    /// A person by email; in a write transaction its row is locked `FOR UPDATE` in the statement
    /// that reads it (T66). Two imports of one new email both find no row; the second's insert
    /// then fails on the unique index and the import runs again as a merge (T70).
    pub(super) async fn person_by_email_impl(&mut self, org: OrgId, email: &Email) -> StoreResult<Option<Person>> {
        let q = person_by_email!(org, email);
        if self.write {
            self.load_one(q.for_update(), conv).await
        } else {
            self.load_one(q, conv).await
        }
    }
}

impl DbTx<'_, crate::SqliteConn> {
    /// Counts an inserted active person in its organization's active count (T69), here rather
    /// than by a trigger on SQLite (T299): with a trigger the person's `INSERT` is a statement
    /// that writes twice, and SQLite copies every page it changes into a statement journal in
    /// case the second write fails.
    pub(super) async fn count_inserted(&mut self, p: &Person) -> StoreResult<()> {
        if p.status != talent_domain::person::PersonStatus::Active {
            return Ok(());
        }
        let q = diesel::sql_query(
            "INSERT INTO org_active_persons (org_id, shard, n) VALUES (?, 0, 1) \
             ON CONFLICT (org_id, shard) DO UPDATE SET n = n + 1",
        )
        .bind::<crate::types::sql::Uuid, _>(DbUuid(p.org_id.0));
        self.run(Prepared(q)).await
    }

    /// Writers are serialized by `BEGIN IMMEDIATE`: nothing to lock.
    pub(super) async fn lock_person_row(&mut self, _key: PersonKey) -> StoreResult<()> {
        Ok(())
    }

    /// [`PersonRepo::lock_import_target`] as three reads (writers are serialized by `BEGIN
    /// IMMEDIATE`; the statements run in process, one after another), and the organization's
    /// endpoints as on PostgreSQL (T272).
    pub(super) async fn import_target_impl(
        &mut self,
        org: OrgId,
        email: &Email,
        _exclusive: bool,
    ) -> StoreResult<Option<ImportTarget>> {
        let q =
            Fixed::new(organizations::table.find(DbUuid(org.0)).select((OrgRow::as_select(), endpoints_version!(org))));
        let Some((o, version)) = self.first_owned(q, |_, r| Ok(r)).await? else { return Ok(None) };
        self.endpoints_at(org, version).await?;
        let person = self.person_by_email_impl(org, email).await?;
        let active = self.count_active_persons(org).await?;
        Ok(Some(ImportTarget { org: Organization::try_from(o)?, person, active }))
    }

    /// Writers are serialized by `BEGIN IMMEDIATE`: a plain read.
    pub(super) async fn person_by_email_impl(&mut self, org: OrgId, email: &Email) -> StoreResult<Option<Person>> {
        self.first_owned(Fixed::new(person_by_email!(org, email)), conv).await
    }
}

macro_rules! impl_person_repo {
    ($conn:ty) => {
        impl<'c> PersonRepo for DbTx<'c, $conn> {
            fn ensure_human<'a>(
                &'a mut self,
                new_id: HumanId,
                key: &'a str,
                now: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<HumanId>> {
                Box::pin(async move {
                    let insert = Fixed::new(
                        diesel::insert_into(humans::table)
                            .values((
                                humans::id.eq(DbUuid(new_id.0)),
                                humans::email.eq(key.to_string()),
                                humans::created_at.eq(DbTime(now)),
                            ))
                            .on_conflict(humans::email)
                            .do_nothing()
                            .returning(humans::id),
                    );
                    // A new human: one statement; an existing one: its id read next.
                    self.keep_next_plan();
                    if let Some(id) = self.first_owned(insert, |_, id: DbUuid| Ok(id)).await? {
                        return Ok(HumanId(id.0));
                    }
                    let q = humans::table.filter(humans::email.eq(key.to_string())).select(humans::id);
                    let id = self.first_owned(q, |_, id: DbUuid| Ok(id)).await?;
                    id.map(|i| HumanId(i.0))
                        .ok_or_else(|| StoreError::Internal("the human of a conflicting address is gone".into()))
                })
            }

            fn find_humans_of_address<'a>(&'a mut self, email: &'a str) -> BoxFuture<'a, StoreResult<Vec<HumanId>>> {
                Box::pin(async move {
                    // The twins' keys by a LIKE prefix, the address's own wildcards escaped.
                    let pattern = format!("{}%", like_escape(&talent_domain::organization::test_human_prefix(email)));
                    let q = humans::table
                        .filter(humans::email.eq(email).or(humans::email.like(pattern).escape('\\')))
                        .select(humans::id);
                    self.load_all(q, |_, u: DbUuid| Ok(HumanId(u.0))).await
                })
            }

            fn find_human<'a>(&'a mut self, key: &'a str) -> BoxFuture<'a, StoreResult<Option<HumanId>>> {
                Box::pin(async move {
                    let id: Option<DbUuid> = humans::table
                        .filter(humans::email.eq(key))
                        .select(humans::id)
                        .get_result(self.conn)
                        .await
                        .optional()
                        .map_err(db_err)?;
                    Ok(id.map(|u| HumanId(u.0)))
                })
            }

            fn find_person_by_email<'a>(
                &'a mut self,
                org: OrgId,
                email: &'a Email,
            ) -> BoxFuture<'a, StoreResult<Option<Person>>> {
                Box::pin(async move { self.person_by_email_impl(org, email).await })
            }

            fn lock_import_target<'a>(
                &'a mut self,
                org: OrgId,
                email: &'a Email,
                exclusive: bool,
            ) -> BoxFuture<'a, StoreResult<Option<ImportTarget>>> {
                Box::pin(async move { self.import_target_impl(org, email, exclusive).await })
            }

            fn get_person(&mut self, org: OrgId, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
                Box::pin(async move {
                    self.lock_person_row(PersonKey::Id(org, id)).await?;
                    let q = persons::table.find(DbUuid(id.0)).filter(persons::org_id.eq(DbUuid(org.0)));
                    self.first_fixed(q.select(PersonRow::as_select()), conv).await
                })
            }

            fn get_person_any(&mut self, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
                Box::pin(async move {
                    self.lock_person_row(PersonKey::AnyOrg(id)).await?;
                    self.first_fixed(persons::table.find(DbUuid(id.0)).select(PersonRow::as_select()), conv).await
                })
            }

            fn insert_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run_owned(Fixed::new(diesel::insert_into(persons::table).values(PersonRow::from(p)))).await?;
                    self.count_inserted(p).await?;
                    self.write_person_tags(p).await
                })
            }

            fn update_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.exec(Prepared(diesel::update(persons::table.find(DbUuid(p.id.0))).set(PersonRow::from(p))))
                        .await?;
                    self.exec(diesel::delete(person_tags::table.filter(person_tags::person_id.eq(DbUuid(p.id.0)))))
                        .await?;
                    self.write_person_tags(p).await
                })
            }

            fn resolve_tags<'a>(
                &'a mut self,
                org: OrgId,
                names: &'a [(TagName, TagId)],
                now: OffsetDateTime,
            ) -> BoxFuture<'a, StoreResult<Vec<Tag>>> {
                Box::pin(async move {
                    // Insert in one global order (by key; stable, so the first spelling of a call
                    // still wins): concurrent transactions inserting the same new tags in
                    // different orders would otherwise deadlock on PostgreSQL.
                    let mut by_key: Vec<&(TagName, TagId)> = names.iter().collect();
                    by_key.sort_by_key(|(name, _)| name.key());
                    for (name, id) in by_key {
                        self.exec(
                            diesel::insert_into(tags::table)
                                .values((
                                    tags::id.eq(DbUuid(id.0)),
                                    tags::org_id.eq(DbUuid(org.0)),
                                    tags::name.eq(name.as_str()),
                                    tags::name_key.eq(name.key()),
                                    tags::created_at.eq(DbTime(now)),
                                ))
                                .on_conflict((tags::org_id, tags::name_key))
                                .do_nothing(),
                        )
                        .await?;
                    }
                    let mut out = Vec::with_capacity(names.len());
                    for (name, _) in names {
                        let (tid, tname): (DbUuid, String) = tags::table
                            .filter(tags::org_id.eq(DbUuid(org.0)))
                            .filter(tags::name_key.eq(name.key()))
                            .select((tags::id, tags::name))
                            .get_result(self.conn)
                            .await
                            .map_err(db_err)?;
                        out.push(Tag { id: TagId(tid.0), name: tname });
                    }
                    Ok(out)
                })
            }

            fn list_persons<'a>(&'a mut self, q: &'a PersonQuery) -> BoxFuture<'a, StoreResult<Vec<Person>>> {
                Box::pin(async move {
                    let Some(tag_ids) = self.tag_filter(q).await? else { return Ok(vec![]) };
                    self.load_all(Self::persons_query(q, tag_ids).select(PersonRow::as_select()), conv).await
                })
            }

            fn insert_team<'a>(&'a mut self, team: &'a Team) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(diesel::insert_into(teams::table).values(TeamRow {
                        id: DbUuid(team.id.0),
                        org_id: DbUuid(team.org_id.0),
                        name: team.name.clone(),
                        created_at: DbTime(team.created_at),
                    }))
                    .await
                })
            }

            fn list_teams(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<(Team, u64)>>> {
                Box::pin(async move {
                    let rows: Vec<TeamRow> = teams::table
                        .filter(teams::org_id.eq(DbUuid(org.0)))
                        .order((teams::name.asc(), teams::id.asc()))
                        .select(TeamRow::as_select())
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    let ids: Vec<DbUuid> = rows.iter().map(|r| r.id).collect();
                    let counts: Vec<(DbUuid, i64)> = team_members::table
                        .filter(team_members::team_id.eq_any(&ids))
                        .group_by(team_members::team_id)
                        .select((team_members::team_id, diesel::dsl::count_star()))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(rows
                        .into_iter()
                        .map(|r| {
                            let n = counts.iter().find(|(id, _)| *id == r.id).map(|(_, n)| *n as u64).unwrap_or(0);
                            (Team::from(r), n)
                        })
                        .collect())
                })
            }

            fn get_team(&mut self, id: TeamId) -> BoxFuture<'_, StoreResult<Option<Team>>> {
                Box::pin(async move {
                    self.load_one(teams::table.find(DbUuid(id.0)).select(TeamRow::as_select()), |_, r| {
                        Ok(Team::from(r))
                    })
                    .await
                })
            }

            fn add_team_member(
                &mut self,
                team: TeamId,
                person: PersonId,
                at: OffsetDateTime,
            ) -> BoxFuture<'_, StoreResult<()>> {
                Box::pin(async move {
                    self.run(
                        diesel::insert_into(team_members::table)
                            .values((
                                team_members::team_id.eq(DbUuid(team.0)),
                                team_members::person_id.eq(DbUuid(person.0)),
                                team_members::created_at.eq(DbTime(at)),
                            ))
                            .on_conflict_do_nothing(),
                    )
                    .await
                })
            }

            fn list_team_members(&mut self, team: TeamId) -> BoxFuture<'_, StoreResult<Vec<PersonId>>> {
                Box::pin(async move {
                    let q = team_members::table
                        .filter(team_members::team_id.eq(DbUuid(team.0)))
                        .order((team_members::created_at.asc(), team_members::person_id.asc()));
                    self.load_all(q.select(team_members::person_id), |_, u: DbUuid| Ok(PersonId(u.0))).await
                })
            }

            fn remove_person_from_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<u64>> {
                Box::pin(async move {
                    let n = self
                        .exec(diesel::delete(team_members::table.filter(team_members::person_id.eq(DbUuid(person.0)))))
                        .await?;
                    Ok(n as u64)
                })
            }

            fn list_person_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<Vec<Team>>> {
                Box::pin(async move {
                    let of_person = team_members::table
                        .filter(team_members::person_id.eq(DbUuid(person.0)))
                        .select(team_members::team_id);
                    let q =
                        teams::table.filter(teams::id.eq_any(of_person)).order((teams::name.asc(), teams::id.asc()));
                    self.load_all(q.select(TeamRow::as_select()), |_, r| Ok(Team::from(r))).await
                })
            }

            fn remove_team_member(&mut self, team: TeamId, person: PersonId) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    let target = team_members::table
                        .filter(team_members::team_id.eq(DbUuid(team.0)))
                        .filter(team_members::person_id.eq(DbUuid(person.0)));
                    let n = self.exec(diesel::delete(target)).await?;
                    Ok(n > 0)
                })
            }
        }

        impl<'c> DbTx<'c, $conn> {
            /// The ids of the tags `q.tag` names (one per organization in scope), read before the
            /// list query so that they reach it as values: with the tag behind a join the planner
            /// assumes an average tag and walked 25,000 persons for a page of a tag that 0.1 % of
            /// 1,000,000 carry (94 ms; with the id, 1 ms). `None`: no such tag, so no person
            /// matches. `Some(empty)` when `q` has no tag filter.
            pub(crate) async fn tag_filter(&mut self, q: &PersonQuery) -> StoreResult<Option<Vec<DbUuid>>> {
                let Some(key) = &q.tag_key else { return Ok(Some(vec![])) };
                let mut t = tags::table.filter(tags::name_key.eq(key.clone())).select(tags::id).into_boxed();
                if let Some(org) = q.org_id {
                    t = t.filter(tags::org_id.eq(DbUuid(org.0)));
                }
                let ids: Vec<DbUuid> = t.load(self.conn).await.map_err(db_err)?;
                Ok(if ids.is_empty() { None } else { Some(ids) })
            }

            /// The `GET /persons` query of `q` (with `tag_ids` from [`Self::tag_filter`]): its
            /// filters and keyset cursor, newest first, at most `q.limit` rows. Shared by
            /// [`PersonRepo::list_persons`] and [`crate::DbStore::explain_persons`], so the plan explained
            /// is the plan served.
            pub(crate) fn persons_query(
                q: &PersonQuery,
                tag_ids: Vec<DbUuid>,
            ) -> persons::BoxedQuery<'static, <Self as Dialect>::Backend> {
                let mut query = persons::table.into_boxed();
                if let Some(status) = q.status.only() {
                    query = query.filter(persons::status.eq(status.as_str()));
                }
                if let Some(org) = q.org_id {
                    query = query.filter(persons::org_id.eq(DbUuid(org.0)));
                }
                if let Some(b) = q.before_id {
                    query = query.filter(persons::id.lt(DbUuid(b.0)));
                }
                if let Some(e) = &q.email {
                    query = query.filter(persons::email.eq(e.as_str().to_string()));
                }
                if let Some(x) = &q.external_id {
                    query = query.filter(persons::external_id.eq(x.clone()));
                }
                if let Some(s) = q.assessment_status {
                    query = query.filter(persons::assessment_status.eq(s.as_str()));
                }
                match q.label {
                    None => {}
                    Some(LabelFilter::Candidate) => query = query.filter(persons::label_candidate.eq(true)),
                    Some(LabelFilter::Employee) => query = query.filter(persons::label_employee.eq(true)),
                    Some(LabelFilter::Other) => {
                        query =
                            query.filter(persons::label_candidate.eq(false)).filter(persons::label_employee.eq(false))
                    }
                }
                if let Some(u) = q.updated_after {
                    query = query.filter(persons::updated_at.gt(DbTime(u)));
                }
                if let Some(needle) = &q.q {
                    let pattern = format!("%{}%", like_escape(needle));
                    query = query.filter(persons::search_text.like(pattern).escape('\\'));
                }
                if q.tag_key.is_some() {
                    // The tag's ids as values (see `tag_filter`): the planner then knows how many
                    // persons carry it (a rare tag is read from its index, a common one while
                    // walking the newest persons). One id, the usual case, is compared with `=`:
                    // the tag's index, ordered by person, then yields the newest first and a
                    // rare tag's page reads 25 of its entries, not all of them (2,000 carriers
                    // among two million persons: 3.5 ms p99 instead of 11.5).
                    let sub = match tag_ids.as_slice() {
                        [one] => person_tags::table.filter(person_tags::tag_id.eq(*one)).into_boxed(),
                        _ => person_tags::table.filter(person_tags::tag_id.eq_any(tag_ids)).into_boxed(),
                    };
                    query = query.filter(persons::id.eq_any(sub.select(person_tags::person_id)));
                }
                // Two steps: the page's ids first, from the filters alone, then their rows. The
                // first step can then be answered from an index that carries what the filters
                // read (PostgreSQL's keyset index carries `search_text`: a `q=` in an
                // organization is tested on its index entries, without reading a row that does
                // not match), and only the page's rows are read.
                let ids = query.select(persons::id).order(persons::id.desc()).limit(i64::from(q.limit));
                persons::table.filter(persons::id.eq_any(ids)).order(persons::id.desc()).into_boxed()
            }

            async fn write_person_tags(&mut self, p: &Person) -> StoreResult<()> {
                if p.tags.is_empty() {
                    return Ok(());
                }
                let rows: Vec<_> = p
                    .tags
                    .iter()
                    .map(|t| (person_tags::person_id.eq(DbUuid(p.id.0)), person_tags::tag_id.eq(DbUuid(t.id.0))))
                    .collect();
                for r in rows {
                    self.run_owned(diesel::insert_into(person_tags::table).values(r).on_conflict_do_nothing()).await?;
                }
                Ok(())
            }
        }
    };
}

impl_person_repo!(PgPipe<'_>);
impl_person_repo!(crate::SqliteConn);
