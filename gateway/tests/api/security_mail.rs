//! S5: the application form is not a mail relay. Mail to an address nobody has proven they own carries no text or
//! links from the sender; names must be names; the outbox caps mail per recipient (`+tag` variants are one
//! recipient), per recipient domain and overall; one uploaded CV backs one application; limits key on the real
//! client, never on the victim's address. Links in the firm's notice follow the configured site URL.

use crate::security_support::*;
use serde_json::json;

/// The queued (not suppressed) mail to addresses matching `like`, as (address, body).
async fn queued(s: &crate::storage_support::StorageApp, like: &str) -> Vec<(String, String)> {
    let db = s.app.admin_client().await;
    let q =
        "select to_address, body_text from gateway.outbox where status = 'queued' and to_address like $1 order by id";
    db.query(q, &[&like]).await.unwrap().iter().map(|r| (r.get(0), r.get(1))).collect()
}

#[tokio::test]
async fn s5_the_applicant_copy_carries_no_sender_text_and_links_follow_the_configured_site() {
    let s = site_app(&[("API_EXTERNAL_URL", "https://jobs.firm.example")]).await;
    let row = application(&s, "ada@example.org", "Adalinda").await;
    assert_eq!(insert(&s, &client_from("127.0.0.1"), "applications", &row, &[]).await.status, 201);
    let ack = queued(&s, "ada@example.org").await;
    assert_eq!(ack.len(), 1);
    let body = &ack[0].1;
    assert!(body.contains("within 2 weeks"), "{body}");
    for sender_text in ["Adalinda", "Lovelace", "evil.example", "http", "claim"] {
        assert!(!body.contains(sender_text), "the acknowledgement carries {sender_text:?}: {body}");
    }
    let notice = queued(&s, "inbox@firm.example").await;
    assert!(notice[0].1.contains("https://jobs.firm.example/admin"), "{}", notice[0].1);
    assert!(!notice[0].1.contains("54321"), "{}", notice[0].1);
}

#[tokio::test]
async fn s5_names_must_be_names() {
    let s = site_app(&[]).await;
    let http = client_from("127.0.0.1");
    for name in ["Click https://evil.example/claim to confirm", "evil.example", "Ada2", "a@b.example", "/\\"] {
        let a = insert(&s, &http, "applications", &application(&s, "n@example.org", name).await, &[]).await;
        assert_eq!((a.status, a.body["code"].as_str()), (400, Some("23514")), "{name}: {}", a.body);
    }
    for name in ["Zoë", "Mary-Jane", "O'Neil", "J. R. R.", "李小龍"] {
        let a = insert(&s, &http, "applications", &application(&s, "n@example.org", name).await, &[]).await;
        assert_eq!(a.status, 201, "{name}: {}", a.body);
    }
}

#[tokio::test]
async fn s5_tagged_addresses_domains_and_all_mail_are_capped() {
    let s = site_app(&[]).await;
    // Eight applications from eight real clients to victim+N@example.org.
    for i in 0..8 {
        let row = application(&s, &format!("victim+{i}@example.org"), "Ada").await;
        let a = insert(&s, &client_from(&format!("127.0.1.{}", i + 1)), "applications", &row, &[]).await;
        assert_eq!(a.status, 201, "{}", a.body);
    }
    assert_eq!(queued(&s, "victim+%@example.org").await.len(), 5, "five per recipient per hour, +tags included");
    s.sql("update gateway.outbox_caps set per_domain_per_hour = 7").await;
    for i in 0..3 {
        let row = application(&s, &format!("someone{i}@example.org"), "Ada").await;
        assert_eq!(
            insert(&s, &client_from(&format!("127.0.2.{}", i + 1)), "applications", &row, &[]).await.status,
            201
        );
    }
    assert_eq!(queued(&s, "%@example.org").await.len(), 7, "the domain's cap");
    s.sql("update gateway.outbox_caps set global_per_hour = (select count(*) from gateway.outbox where status <> 'suppressed')").await;
    let row = application(&s, "elsewhere@example.net", "Ada").await;
    assert_eq!(insert(&s, &client_from("127.0.3.1"), "applications", &row, &[]).await.status, 201);
    assert!(queued(&s, "%example.net").await.is_empty(), "the global cap");
    let suppressed = texts(&s, "select count(*)::text from gateway.outbox where status = 'suppressed'").await;
    assert_eq!(suppressed, vec!["5"], "kept for the operator, never sent");
}

#[tokio::test]
async fn s5_limits_key_on_the_client_not_on_the_victims_address() {
    let s = site_app(&[]).await;
    for i in 0..6 {
        let row = application(&s, "victim@example.org", "Ada").await;
        let a = insert(&s, &client_from(&format!("127.0.4.{}", i + 1)), "applications", &row, &[]).await;
        assert_eq!(a.status, 201, "application {i} with the victim's address: {}", a.body);
    }
}

#[tokio::test]
async fn s5_one_uploaded_cv_backs_one_application() {
    let s = site_app(&[]).await;
    let http = client_from("127.0.0.1");
    let first = application(&s, "a@example.org", "Ada").await;
    assert_eq!(insert(&s, &http, "applications", &first, &[]).await.status, 201);
    let mut second = application(&s, "b@example.org", "Bea").await;
    second["cv_object"] = first["cv_object"].clone();
    let a = insert(&s, &http, "applications", &second, &[]).await;
    assert_eq!((a.status, a.body["code"].as_str()), (409, Some("23505")), "{}", a.body);
    let count = texts(&s, "select count(*)::text from public.applications").await;
    assert_eq!(count, vec!["1"]);
    let _ = json!({});
}
