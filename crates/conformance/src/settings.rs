//! Server settings (`SettingsRepo`).

use super::*;

pub async fn setting_get_or_insert_keeps_the_first_value<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let set = |n: &'static str, v: String| {
        let svc = svc.clone();
        async move { write(&svc, move |tx| Box::pin(async move { tx.setting_get_or_insert(n, &v).await })).await.unwrap() }
    };
    assert_eq!(set("webhook_secret", "first".into()).await, "first");
    assert_eq!(set("webhook_secret", "second".into()).await, "first");
    assert_eq!(set("other", "x".into()).await, "x");

    let values: BTreeSet<String> = race(&svc, 8, |_, i| set("raced", format!("v{i}"))).await.into_iter().collect();
    assert_eq!(values.len(), 1, "every caller sees the one stored value: {values:?}");
    let v = values.into_iter().next().unwrap();
    assert_eq!(set("raced", "late".into()).await, v);
}
