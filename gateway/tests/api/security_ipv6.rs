//! U2 (issue 30): an IPv6 client is counted by its /64 wherever an address keys a limit — the site's forms in SQL
//! and Auth's buckets in the gateway — so addresses rotated inside one /64 share one bucket and another /64 has its
//! own; and a global hourly cap is no longer one that a few clients can spend for everybody (the old level only
//! alerts the firm). The clients are named by a trusted proxy, as behind a load balancer.

use crate::auth_helpers::{into_call, mail_dir};
use crate::security_support::*;
use serde_json::json;

const PROXY: &str = "127.0.0.7";

/// An application from `address`, named by the trusted proxy.
async fn apply_from(s: &crate::storage_support::StorageApp, address: &str, n: usize) -> Answer {
    let row = application(s, &format!("v6-{n}@example.org"), "Ada").await;
    insert(s, &client_from(PROXY), "applications", &row, &[("x-forwarded-for", address)]).await
}

#[tokio::test]
async fn u2_one_ipv6_64_is_one_client_for_the_sites_forms() {
    let s = site_app(&[("GATEWAY_TRUSTED_PROXIES", "127.0.0.7/32")]).await;
    for i in 1..=10 {
        let a = apply_from(&s, &format!("2001:db8:1:2::{i:x}"), i).await;
        assert_eq!(a.status, 201, "application {i}: {}", a.body);
    }
    for (n, other) in ["2001:db8:1:2::ffff", "2001:db8:1:2:abcd:ef01:2345:6789"].iter().enumerate() {
        assert_refused_with_retry_after(&apply_from(&s, other, 20 + n).await, other);
    }
    assert_eq!(apply_from(&s, "2001:db8:1:3::1", 30).await.status, 201, "the next /64 is another client");
}

#[tokio::test]
async fn u2_the_old_global_level_alerts_the_firm_and_refuses_nobody() {
    let s = site_app(&[]).await;
    s.sql("insert into private.settings values ('limit:application_alert_per_hour', '2')").await;
    let mut statuses = vec![];
    for ip in ["127.0.0.61", "127.0.0.62", "127.0.0.63", "127.0.0.64"] {
        let row = application(&s, &format!("{ip}@example.org"), "Ada").await;
        statuses.push(insert(&s, &client_from(ip), "applications", &row, &[]).await.status);
    }
    assert_eq!(statuses, vec![201; 4], "past the alert level every client is still served");
    let alerts = texts(
        &s,
        "select subject from gateway.outbox where to_address = 'inbox@firm.example' and subject like 'Unusual%'",
    )
    .await;
    assert_eq!(alerts, ["Unusual activity on the site: more than 2 applications in an hour"]);
}

#[tokio::test]
async fn u2_one_ipv6_64_is_one_client_for_auths_limits() {
    let mail = mail_dir();
    let s = site_app(&[
        ("GATEWAY_MAIL_DIR", mail.path()),
        ("GOTRUE_SMTP_MAX_FREQUENCY", "0"),
        ("GATEWAY_TRUSTED_PROXIES", "127.0.0.7/32"),
    ])
    .await;
    let signup = |email: String, address: String| {
        let req = client_from(PROXY).post(s.app.url("/auth/v1/signup")).header("apikey", &s.app.anon_key);
        let req =
            req.header("x-forwarded-for", address).json(&json!({"email": email, "password": "a long password 1"}));
        async move { into_call(req.send().await.unwrap()).await.status }
    };
    let mut statuses = vec![];
    for i in 1..=10 {
        statuses.push(signup(format!("u2-{i}@example.org"), format!("2001:db8:5:6::{i:x}")).await);
    }
    assert_eq!(statuses, [200; 10]);
    assert_eq!(signup("u2-11@example.org".into(), "2001:db8:5:6::ffff".into()).await, 429, "the 11th mail, same /64");
    assert_eq!(signup("u2-12@example.org".into(), "2001:db8:5:7::1".into()).await, 200, "another /64");
}
