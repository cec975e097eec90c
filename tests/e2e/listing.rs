//! `GET /api/v1/persons` (spec, Endpoints; pagination envelope; D36): newest first, the default
//! page of 25, every filter, keyset pagination across pages, and the 400s for bad filters,
//! cursors, limits and unknown parameters.
use crate::persons::{assert_person_shape, create, enc, fields, id_of, ids, keys, page, person_path, walk};
use crate::support::TestApp;
use serde_json::{json, Value};

/// Imports `n` persons one after the other; returns their ids in creation order.
fn import_sequentially(app: &TestApp, key: &str, n: usize, prefix: &str) -> Vec<String> {
    (0..n).map(|i| id_of(&create(app, key, json!({"email": format!("{prefix}{i:03}@example.com")})))).collect()
}

fn newest_first(mut created: Vec<String>) -> Vec<String> {
    created.reverse();
    created
}

/// The ids of GET /persons?{query} (one page of at most 100).
fn list(app: &TestApp, key: &str, query: &str) -> Vec<String> {
    let sep = if query.is_empty() { "" } else { "&" };
    let r = page(app, key, &format!("{query}{sep}limit=100"));
    assert_eq!(r.json["pagination"]["hasMore"], false, "{}", r.text);
    ids(&r)
}

fn query_error(app: &TestApp, key: &str, query: &str) -> Vec<String> {
    fields(&app.get(&format!("/api/v1/persons?{query}"), key))
}

// Spec GET /persons: newest first; `limit` defaults to 25; the envelope is exactly
// {data, pagination{hasMore, nextCursor}} and items are Person objects without `invitation`.
crate::e2e!(lists_are_newest_first_with_25_items_by_default_in_the_exact_envelope, Default::default(), |app| {
    let org = app.org("business", "active");
    let empty = page(app, &org.key, "");
    assert_eq!(empty.json, json!({"data": [], "pagination": {"hasMore": false, "nextCursor": null}}));

    let created = import_sequentially(app, &org.key, 30, "p");
    let r = page(app, &org.key, "");
    assert_eq!(keys(&r.json), ["data", "pagination"]);
    let data = r.json["data"].as_array().unwrap();
    for item in data {
        assert_person_shape(item, false);
    }
    assert_eq!(ids(&r), newest_first(created.clone())[..25]);
    assert_eq!(r.json["pagination"]["hasMore"], true);
    assert!(r.json["pagination"]["nextCursor"].as_str().is_some_and(|c| !c.is_empty()));
    assert_eq!(data[0]["email"], "p029@example.com");

    // The list item is the same object as GET /persons/{id}.
    let g = app.get(&person_path(&created[29]), &org.key);
    assert_eq!(data[0], g.json);

    // The rest on the next page, then the end.
    let c = r.json["pagination"]["nextCursor"].as_str().unwrap();
    let r2 = page(app, &org.key, &format!("cursor={}", enc(c)));
    assert_eq!(ids(&r2), newest_first(created)[25..]);
    assert_eq!(r2.json["pagination"], json!({"hasMore": false, "nextCursor": null}));
});

// D36: keyset pagination over 60 persons with limit=25: pages of 25, 25, 10, hasMore true, true,
// false, nextCursor null at the end, no duplicates or gaps, newest first overall; an exact
// multiple of the limit ends without an empty page; the limit may change between pages.
crate::e2e!(sixty_persons_walk_in_pages_of_25_25_and_10_without_gaps_or_duplicates, Default::default(), |app| {
    let org = app.org("business", "active");
    let created = import_sequentially(app, &org.key, 60, "w");
    let expected = newest_first(created.clone());

    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut shape = Vec::new();
    loop {
        let q = match &cursor {
            None => "limit=25".to_string(),
            Some(c) => format!("limit=25&cursor={}", enc(c)),
        };
        let r = page(app, &org.key, &q);
        let has_more = r.json["pagination"]["hasMore"].as_bool().unwrap();
        shape.push((ids(&r).len(), has_more));
        seen.extend(ids(&r));
        match r.json["pagination"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
        assert!(shape.len() < 10, "runaway pagination");
    }
    assert_eq!(shape, [(25, true), (25, true), (10, false)]);
    assert_eq!(seen, expected, "newest first, no duplicates, no gaps");

    let (items, sizes) = walk(app, &org.key, "", 20);
    assert_eq!(sizes, [20, 20, 20], "no empty page after an exact multiple");
    assert_eq!(items.iter().map(id_of).collect::<Vec<_>>(), expected);

    // The cursor binds the filters, not the page size.
    let first = page(app, &org.key, "limit=10");
    let c = first.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
    let rest = page(app, &org.key, &format!("limit=100&cursor={}", enc(&c)));
    assert_eq!(ids(&rest), expected[10..]);
});

// Spec filter q: case-insensitive substring across first name, last name and email; LIKE
// wildcards are literal; at most 100 characters (101 → 400 on field q).
crate::e2e!(q_searches_first_name_last_name_and_email_case_insensitively, Default::default(), |app| {
    let org = app.org("business", "active");
    let mk = |email: &str, first: &str, last: &str| {
        id_of(&create(app, &org.key, json!({"email": email, "firstName": first, "lastName": last})))
    };
    let ada = mk("ada@example.com", "Ada", "Lovelace");
    let grace = mk("grace@navy.example", "Grace", "Hopper");
    let alan = mk("alan@bletchley.example", "Alan", "Turing");
    let pct = mk("pct@example.com", "100%", "Under_Score");
    let zoe = mk("zoe@example.org", "Zoë", "Ölberg");

    let cases: [(&str, Vec<&String>); 12] = [
        ("ADA", vec![&ada]),
        ("hopp", vec![&grace]),
        ("TURING", vec![&alan]),
        ("navy.EXAMPLE", vec![&grace]),
        ("example.com", vec![&pct, &ada]),
        ("@", vec![&zoe, &pct, &alan, &grace, &ada]),
        ("%", vec![&pct]),
        ("_", vec![&pct]),
        ("öLBERG", vec![&zoe]),
        ("ZOË", vec![&zoe]),
        ("lovelace", vec![&ada]),
        ("zzz", vec![]),
    ];
    for (q, want) in cases {
        let want: Vec<String> = want.into_iter().cloned().collect();
        assert_eq!(list(app, &org.key, &format!("q={}", enc(q))), want, "q={q}");
    }
    assert_eq!(list(app, &org.key, &format!("q={}", "x".repeat(100))), Vec::<String>::new());
    assert_eq!(query_error(app, &org.key, &format!("q={}", "x".repeat(101))), ["q"]);
    // Characters, not bytes: 100 two-byte characters are fine.
    assert_eq!(list(app, &org.key, &format!("q={}", enc(&"é".repeat(100)))), Vec::<String>::new());
});

// Spec filter status: `active` by default, `archived` on request; anything else → 400.
crate::e2e!(the_status_filter_defaults_to_active_and_lists_archived_on_request, Default::default(), |app| {
    let org = app.org("business", "active");
    let created = import_sequentially(app, &org.key, 4, "s");
    for id in [&created[0], &created[2]] {
        assert_eq!(app.delete(&person_path(id), &org.key).status, 200);
    }
    assert_eq!(list(app, &org.key, ""), [created[3].clone(), created[1].clone()]);
    assert_eq!(list(app, &org.key, "status=active"), [created[3].clone(), created[1].clone()]);
    let archived = page(app, &org.key, "status=archived");
    assert_eq!(ids(&archived), [created[2].clone(), created[0].clone()]);
    assert!(archived.json["data"].as_array().unwrap().iter().all(|p| p["status"] == "archived"));
    // Issue 15: `any` lists both in one pass, newest first, and pages like any list.
    let mut all = created.clone();
    all.reverse();
    assert_eq!(list(app, &org.key, "status=any"), all);
    let first = page(app, &org.key, "status=any&limit=3");
    assert_eq!(ids(&first), all[..3]);
    let c = first.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
    assert_eq!(ids(&page(app, &org.key, &format!("status=any&cursor={}", enc(&c)))), all[3..]);
    for bad in ["deleted", "all", ""] {
        assert_eq!(query_error(app, &org.key, &format!("status={bad}")), ["status"], "status={bad}");
    }
});

// Spec filters email and externalId: exact matches; the email filter is normalized like stored
// emails (D9), externalId is compared exactly as stored; an invalid email is a 400.
crate::e2e!(email_and_external_id_filters_match_exactly, Default::default(), |app| {
    let org = app.org("business", "active");
    let ada = id_of(&create(app, &org.key, json!({"email": "ada@example.com", "externalId": "ats-1"})));
    let adam = id_of(&create(app, &org.key, json!({"email": "adam@example.com", "externalId": "ats-10"})));
    let gone = id_of(&create(app, &org.key, json!({"email": "gone@example.com", "externalId": "ats-2"})));
    assert_eq!(app.delete(&person_path(&gone), &org.key).status, 200);

    for (email, want) in [
        ("ada@example.com", vec![ada.clone()]),
        ("ADA@Example.COM", vec![ada.clone()]),
        (" adam@example.com ", vec![adam.clone()]),
        ("da@example.com", vec![]),
        ("ada@example.co", vec![]),
        ("gone@example.com", vec![]),
    ] {
        assert_eq!(list(app, &org.key, &format!("email={}", enc(email))), want, "email={email}");
    }
    assert_eq!(list(app, &org.key, "status=archived&email=gone%40example.com"), [gone.as_str()]);
    assert_eq!(query_error(app, &org.key, "email=ada"), ["email"]);

    for (x, want) in [
        ("ats-1", vec![ada.clone()]),
        ("ats-10", vec![adam.clone()]),
        ("ATS-1", vec![]),
        ("ats", vec![]),
        ("ats-2", vec![]),
    ] {
        assert_eq!(list(app, &org.key, &format!("externalId={}", enc(x))), want, "externalId={x}");
    }
    assert_eq!(list(app, &org.key, "externalId=ats-2&status=archived"), [gone]);
    // Combined filters are ANDed.
    assert_eq!(list(app, &org.key, "externalId=ats-1&email=adam%40example.com"), Vec::<String>::new());
});

// Spec filter assessmentStatus (`not_started`, `in_progress`, `completed`): new persons are
// not_started; D39's admin assessment endpoint moves one to in_progress and one to completed;
// an unknown value → 400.
crate::e2e!(the_assessment_status_filter_selects_by_assessment_state, Default::default(), |app| {
    let org = app.org("business", "active");
    let created = import_sequentially(app, &org.key, 3, "a");
    assert_eq!(list(app, &org.key, "assessmentStatus=not_started"), newest_first(created.clone()));
    assert_eq!(list(app, &org.key, "assessmentStatus=completed"), Vec::<String>::new());
    assert_eq!(list(app, &org.key, "assessmentStatus=in_progress"), Vec::<String>::new());

    let start =
        app.admin("POST", &format!("/admin/v1/persons/{}/assessments", created[0]), Some(&json!({"complete": false})));
    assert_eq!(start.status, 200, "{}", start.text);
    let done = app.admin(
        "POST",
        &format!("/admin/v1/persons/{}/assessments", created[1]),
        Some(&json!({"complete": true, "seed": 7})),
    );
    assert_eq!(done.status, 200, "{}", done.text);

    assert_eq!(list(app, &org.key, "assessmentStatus=in_progress"), [created[0].clone()]);
    assert_eq!(list(app, &org.key, "assessmentStatus=completed"), [created[1].clone()]);
    assert_eq!(list(app, &org.key, "assessmentStatus=not_started"), [created[2].clone()]);
    let c = app.get(&person_path(&created[1]), &org.key);
    assert_eq!(c.json["assessment"]["status"], "completed", "{}", c.text);
    assert_eq!(c.json["assessment"]["count"], 1);
    for bad in ["done", "COMPLETED", ""] {
        assert_eq!(query_error(app, &org.key, &format!("assessmentStatus={bad}")), ["assessmentStatus"]);
    }
});

// Spec filter label: `candidate`, `employee`, `other` (other = no label at all); else 400.
crate::e2e!(the_label_filter_selects_candidates_employees_and_others, Default::default(), |app| {
    let org = app.org("business", "active");
    let mk = |email: &str, labels: Value| id_of(&create(app, &org.key, json!({"email": email, "labels": labels})));
    let c = mk("c@example.com", json!(["candidate"]));
    let e = mk("e@example.com", json!(["employee"]));
    let ce = mk("ce@example.com", json!(["candidate", "employee"]));
    let o = mk("o@example.com", json!([]));
    assert_eq!(list(app, &org.key, "label=candidate"), [ce.clone(), c.clone()]);
    assert_eq!(list(app, &org.key, "label=employee"), [ce.clone(), e.clone()]);
    assert_eq!(list(app, &org.key, "label=other"), [o.as_str()]);
    assert_eq!(list(app, &org.key, ""), [o, ce, e, c.clone()]);
    // A label change moves the person between filters.
    let r = app.send("PATCH", &person_path(&c), &org.key, &json!({"labels": []}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(list(app, &org.key, "label=other").contains(&c));
    assert!(!list(app, &org.key, "label=candidate").contains(&c));
    for bad in ["manager", "Candidate", "none", ""] {
        assert_eq!(query_error(app, &org.key, &format!("label={bad}")), ["label"], "label={bad}");
    }
});

// Spec filter tag: case-insensitive exact match on the tag name (D14 catalogue), never a prefix
// or substring; a tag longer than 50 characters → 400.
crate::e2e!(the_tag_filter_is_a_case_insensitive_exact_match, Default::default(), |app| {
    let org = app.org("business", "active");
    let a = id_of(&create(app, &org.key, json!({"email": "a@example.com", "tags": ["Backend", "Go"]})));
    let b = id_of(&create(app, &org.key, json!({"email": "b@example.com", "tags": ["backend-lead"]})));
    let c = id_of(&create(app, &org.key, json!({"email": "c@example.com", "tags": ["go"]})));
    for (tag, want) in [
        ("backend", vec![a.clone()]),
        ("BACKEND", vec![a.clone()]),
        ("back", vec![]),
        ("end", vec![]),
        ("go", vec![c.clone(), a.clone()]),
        ("backend-lead", vec![b.clone()]),
        ("unknown", vec![]),
    ] {
        assert_eq!(list(app, &org.key, &format!("tag={}", enc(tag))), want, "tag={tag}");
    }
    let r = app.send("PATCH", &person_path(&a), &org.key, &json!({"tags": ["Rust"]}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(list(app, &org.key, "tag=backend"), Vec::<String>::new());
    assert_eq!(list(app, &org.key, "tag=go"), [c]);
    assert_eq!(list(app, &org.key, "tag=rust"), [a]);
    assert_eq!(query_error(app, &org.key, &format!("tag={}", "t".repeat(51))), ["tag"]);
    assert_eq!(query_error(app, &org.key, "tag="), ["tag"]);
});

// Spec filter updatedAfter (incremental sync): only persons changed strictly after the moment,
// at microsecond precision, any RFC 3339 offset; combined with status; an invalid date-time → 400.
crate::e2e!(updated_after_lists_only_persons_changed_after_the_moment, Default::default(), |app| {
    let org = app.org("business", "active");
    let created = import_sequentially(app, &org.key, 3, "u");
    let t = app.get(&person_path(&created[2]), &org.key).json["updatedAt"].as_str().unwrap().to_string();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let changed = app.send("PATCH", &person_path(&created[0]), &org.key, &json!({"externalId": "x-1"}));
    assert_eq!(changed.status, 200, "{}", changed.text);
    let archived = app.delete(&person_path(&created[1]), &org.key);
    assert_eq!(archived.status, 200, "{}", archived.text);

    let after = |ts: &str| format!("updatedAfter={}", enc(ts));
    assert_eq!(list(app, &org.key, &after(&t)), [created[0].clone()]);
    assert_eq!(list(app, &org.key, &format!("status=archived&{}", after(&t))), [created[1].clone()]);

    // Strictly after, at microsecond precision.
    let u = changed.json["updatedAt"].as_str().unwrap();
    assert_eq!(list(app, &org.key, &after(u)), Vec::<String>::new());
    let parsed = time::OffsetDateTime::parse(u, &time::format_description::well_known::Rfc3339).unwrap();
    let just_before = talent_domain::timefmt::format(parsed - time::Duration::microseconds(1));
    assert_eq!(list(app, &org.key, &after(&just_before)), [created[0].clone()]);

    // Long ago: every active person; the same moment with an offset means the same.
    assert_eq!(list(app, &org.key, &after("2000-01-01T00:00:00Z")), [created[2].clone(), created[0].clone()]);
    assert_eq!(list(app, &org.key, &after("2000-01-01T02:00:00+02:00")), [created[2].clone(), created[0].clone()]);
    assert_eq!(list(app, &org.key, &after("2999-01-01T00:00:00Z")), Vec::<String>::new());

    for bad in ["yesterday", "2026-01-01", "2026-13-01T00:00:00Z", "2026-01-01 00:00:00", "1700000000", ""] {
        assert_eq!(query_error(app, &org.key, &after(bad)), ["updatedAfter"], "updatedAfter={bad}");
    }
});

// D36: the cursor is opaque and tamper-evident; an altered or foreign cursor, or one used with
// other filters, is a 400 validation_error on field `cursor`.
crate::e2e!(tampered_cursors_and_cursors_for_other_filters_are_400, Default::default(), |app| {
    let org = app.org("business", "active");
    import_sequentially(app, &org.key, 3, "c");
    let first = page(app, &org.key, "limit=1");
    let c = first.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
    assert_eq!(page(app, &org.key, &format!("limit=1&cursor={}", enc(&c))).json["data"].as_array().unwrap().len(), 1);

    let mut bytes = c.clone().into_bytes();
    let mid = bytes.len() / 2;
    bytes[mid] = if bytes[mid] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(bytes).unwrap();
    let truncated = c[..c.len() - 2].to_string();
    let extended = format!("{c}AA");
    for bad in [flipped.as_str(), truncated.as_str(), extended.as_str(), "garbage", "", "%%%"] {
        assert_eq!(query_error(app, &org.key, &format!("limit=1&cursor={}", enc(bad))), ["cursor"], "cursor={bad}");
    }
    for other in ["status=archived", "q=c", "label=candidate", "tag=x", "updatedAfter=2000-01-01T00%3A00%3A00Z"] {
        assert_eq!(
            query_error(app, &org.key, &format!("{other}&limit=1&cursor={}", enc(&c))),
            ["cursor"],
            "cursor with {other}"
        );
    }
    // A cursor made under a filter works under the same filter only.
    let filtered = page(app, &org.key, "label=candidate&limit=1");
    let fc = filtered.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
    assert_eq!(ids(&page(app, &org.key, &format!("label=candidate&limit=1&cursor={}", enc(&fc)))).len(), 1);
    assert_eq!(query_error(app, &org.key, &format!("limit=1&cursor={}", enc(&fc))), ["cursor"]);
});

// D36 and spec limit 1 to 100: out-of-range or non-integer limits are 400, never clamped.
crate::e2e!(a_limit_outside_1_to_100_is_400_and_never_clamped, Default::default(), |app| {
    let org = app.org("business", "active");
    let created = import_sequentially(app, &org.key, 3, "l");
    for bad in ["0", "101", "abc", "-1", "", "1.5", "1000", "25x"] {
        assert_eq!(query_error(app, &org.key, &format!("limit={bad}")), ["limit"], "limit={bad}");
    }
    assert_eq!(ids(&page(app, &org.key, "limit=1")), [created[2].clone()]);
    assert_eq!(ids(&page(app, &org.key, "limit=100")).len(), 3);
});

// D36/D37: an unknown or repeated query parameter is a 400 naming it.
crate::e2e!(unknown_or_repeated_query_parameters_are_400, Default::default(), |app| {
    let org = app.org("business", "active");
    for (q, field) in [
        ("foo=1", "foo"),
        ("page=2", "page"),
        ("offset=10", "offset"),
        ("Status=active", "Status"),
        ("status=active&status=archived", "status"),
        ("limit=5&limit=5", "limit"),
    ] {
        assert_eq!(query_error(app, &org.key, q), [field], "?{q}");
    }
    // Several unknown parameters: each is named.
    assert_eq!(query_error(app, &org.key, "sort=email&order=asc"), ["sort", "order"]);
});
