//! [`AssessmentRepo`] on both backends (assessments, need counts and profiles): one body, compiled for PostgreSQL and SQLite.

use super::*;

macro_rules! impl_assessment_repo {
    ($conn:ty) => {
        impl<'c> AssessmentRepo for DbTx<'c, $conn> {
            fn insert_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(diesel::insert_into(assessments::table).values(AssessmentRow::from(a))).await
                })
            }

            fn update_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(Prepared(
                        diesel::update(assessments::table.find(DbUuid(a.id.0))).set(AssessmentRow::from(a)),
                    ))
                    .await
                })
            }

            fn list_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Assessment>>> {
                Box::pin(async move {
                    let q = assessments::table
                        .filter(assessments::human_id.eq(DbUuid(human.0)))
                        .order((assessments::started_at.asc(), assessments::id.asc()));
                    self.load_all(q.select(AssessmentRow::as_select()), conv).await
                })
            }

            fn list_assessments_of_humans<'a>(
                &'a mut self,
                humans: &'a [HumanId],
            ) -> BoxFuture<'a, StoreResult<Vec<Assessment>>> {
                Box::pin(async move {
                    let mut out = Vec::new();
                    for chunk in humans.chunks(500) {
                        let ids: Vec<DbUuid> = chunk.iter().map(|h| DbUuid(h.0)).collect();
                        let rows: Vec<AssessmentRow> = assessments::table
                            .filter(assessments::human_id.eq_any(ids))
                            .order((assessments::started_at.asc(), assessments::id.asc()))
                            .select(AssessmentRow::as_select())
                            .load(self.conn)
                            .await
                            .map_err(db_err)?;
                        for r in rows {
                            out.push(Assessment::try_from(r)?);
                        }
                    }
                    Ok(out)
                })
            }

            fn set_need_counts<'a>(
                &'a mut self,
                id: AssessmentId,
                counts: &'a talent_domain::assessment::NeedCounts,
            ) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(Prepared(
                        diesel::update(assessments::table.find(DbUuid(id.0)))
                            .set(assessments::need_counts.eq(Some(need_counts_json(counts)?))),
                    ))
                    .await
                })
            }

            fn list_completed_counts_of_result_holders(
                &mut self,
                org: OrgId,
            ) -> BoxFuture<'_, StoreResult<Vec<CountedAssessment>>> {
                Box::pin(async move {
                    // The holders as a subquery: a semi-join in the database, no list of ids.
                    let holders = persons::table
                        .filter(persons::org_id.eq(DbUuid(org.0)))
                        .filter(persons::status.eq("active"))
                        .filter(persons::assessment_count.gt(0))
                        .select(persons::human_id);
                    type Counted = (DbUuid, DbUuid, String, DbTime, Option<DbTime>, Option<String>, Option<DbUuid>);
                    let rows: Vec<Counted> = assessments::table
                        .filter(assessments::human_id.eq_any(holders))
                        .filter(assessments::state.eq("completed"))
                        // No order: the caller sums counts per person, and sorting 5,000
                        // rows with their counts was a tenth of the request on SQLite.
                        .select((
                            assessments::id,
                            assessments::human_id,
                            assessments::state,
                            assessments::started_at,
                            assessments::completed_at,
                            assessments::need_counts,
                            assessments::origin_org_id,
                        ))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    rows.into_iter()
                        .map(|(id, human, state, started, completed, counts, origin)| {
                            let a = Assessment::try_from(AssessmentRow {
                                id,
                                human_id: human,
                                state,
                                started_at: started,
                                completed_at: completed,
                                responses: "[]".into(),
                                origin_org_id: origin,
                                // Not read: the matches count needs, nothing else.
                                accommodations: None,
                            })?;
                            Ok((a, counts.as_deref().map(parse_need_counts).transpose()?))
                        })
                        .collect()
                })
            }

            fn list_persons_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
                Box::pin(async move {
                    self.lock_person_row(PersonKey::Human(human)).await?;
                    let q = persons::table.filter(persons::human_id.eq(DbUuid(human.0))).order(persons::id.asc());
                    self.load_all(q.select(PersonRow::as_select()), conv).await
                })
            }

            fn list_persons_with_results(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
                Box::pin(async move {
                    let q = persons::table
                        .filter(persons::org_id.eq(DbUuid(org.0)))
                        .filter(persons::status.eq("active"))
                        .filter(persons::assessment_count.gt(0))
                        .order(persons::id.desc());
                    self.load_all(q.select(PersonRow::as_select()), conv).await
                })
            }

            fn list_result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ResultHolder>>> {
                Box::pin(async move {
                    let rows: Vec<(DbUuid, DbUuid, DbTime, bool, String, Option<String>, String)> = persons::table
                        .filter(persons::org_id.eq(DbUuid(org.0)))
                        .filter(persons::status.eq("active"))
                        .filter(persons::assessment_count.gt(0))
                        .order(persons::id.desc())
                        .select((
                            persons::id,
                            persons::human_id,
                            persons::member_since,
                            persons::shared_existing_profile,
                            persons::inactive_periods,
                            persons::need_totals,
                            persons::joined_via,
                        ))
                        .load(self.conn)
                        .await
                        .map_err(db_err)?;
                    rows.into_iter()
                        .map(|(id, human, since, shared, gaps, totals, joined)| {
                            let joined = JoinedVia::parse(&joined).ok_or_else(|| corrupt("persons.joined_via"))?;
                            Ok(ResultHolder {
                                person_id: PersonId(id.0),
                                human_id: HumanId(human.0),
                                // Active holders only: nothing is archived (D42).
                                visibility: Visibility {
                                    org_id: org,
                                    established_by_person: joined.established_by_person(),
                                    member_since: since.0,
                                    archived_at: None,
                                    inactive_periods: decode_periods(&gaps)?,
                                    shared_existing_profile: shared,
                                },
                                totals: totals.as_deref().map(parse_need_counts).transpose()?,
                            })
                        })
                        .collect()
                })
            }

            fn insert_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(
                    async move { self.run(diesel::insert_into(profiles::table).values(ProfileRow::from(p))).await },
                )
            }

            fn get_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<Option<Profile>>> {
                Box::pin(async move {
                    let q = profiles::table.find(DbUuid(id.0)).filter(profiles::org_id.eq(DbUuid(org.0)));
                    self.load_one(q.select(ProfileRow::as_select()), conv).await
                })
            }

            fn list_profiles(
                &mut self,
                org: OrgId,
                before: Option<ProfileId>,
                limit: u32,
            ) -> BoxFuture<'_, StoreResult<Vec<Profile>>> {
                Box::pin(async move {
                    let mut q = profiles::table.filter(profiles::org_id.eq(DbUuid(org.0))).into_boxed();
                    if let Some(b) = before {
                        q = q.filter(profiles::id.lt(DbUuid(b.0)));
                    }
                    let q = q.order(profiles::id.desc()).limit(i64::from(limit.min(100_000)));
                    self.load_all(q.select(ProfileRow::as_select()), conv).await
                })
            }

            fn update_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>> {
                Box::pin(async move {
                    self.run(Prepared(diesel::update(profiles::table.find(DbUuid(p.id.0))).set(ProfileRow::from(p))))
                        .await
                })
            }

            fn delete_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<bool>> {
                Box::pin(async move {
                    let target = profiles::table.find(DbUuid(id.0)).filter(profiles::org_id.eq(DbUuid(org.0)));
                    let n = self.exec(diesel::delete(target)).await?;
                    Ok(n > 0)
                })
            }

            fn count_profiles(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
                Box::pin(async move {
                    let n: i64 = profiles::table
                        .filter(profiles::org_id.eq(DbUuid(org.0)))
                        .count()
                        .get_result(self.conn)
                        .await
                        .map_err(db_err)?;
                    Ok(u32::try_from(n).unwrap_or(u32::MAX))
                })
            }
        }
    };
}

impl_assessment_repo!(PgPipe<'_>);
impl_assessment_repo!(crate::SqliteConn);
