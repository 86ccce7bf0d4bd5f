//! The mail outbox: SQL queues with gateway.enqueue_mail(), the worker delivers through the Mailer, retries
//! while SMTP is down, and only SQL owners (not the API roles) may queue.

use crate::helpers::spawn_app_with;
use crate::outbox_smtp_sink::Sink;
use std::time::Duration;

/// Waits (bounded) until `query` returns true.
async fn eventually(client: &tokio_postgres::Client, query: &str) -> bool {
    for _ in 0..300 {
        if client.query_one(query, &[]).await.unwrap().get::<_, bool>(0) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn queued_mail_is_written_by_the_folder_transport() {
    let dir = std::env::temp_dir().join(format!("gw-mail-{}", uuid::Uuid::new_v4().simple()));
    let dir_s = dir.to_string_lossy().to_string();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", &dir_s)]).await;
    let db = app.admin_client().await;
    db.batch_execute("select gateway.enqueue_mail('someone@example.com', 'Hello', 'Body text', '<p>Body</p>')")
        .await
        .unwrap();
    assert!(eventually(&db, "select bool_and(status = 'sent') from gateway.outbox").await);
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(files[0].path()).unwrap();
    assert!(text.contains("Subject: Hello") && text.contains("To: someone@example.com"));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_message_queued_while_smtp_is_down_is_delivered_once_it_is_back() {
    // Reserve a port, then leave it closed: the server is "down".
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let port_s = port.to_string();
    let app = spawn_app_with(&[
        ("GOTRUE_SMTP_HOST", "127.0.0.1"),
        ("GOTRUE_SMTP_PORT", &port_s),
        ("GOTRUE_SMTP_ADMIN_EMAIL", "noreply@firm.example"),
        ("GOTRUE_SMTP_SENDER_NAME", "The Firm"),
        ("GATEWAY_OUTBOX_RETRY_BASE_SECS", "0.2"),
        ("GATEWAY_OUTBOX_RETRY_MAX_SECS", "0.5"),
    ])
    .await;
    let db = app.admin_client().await;
    db.batch_execute("select gateway.enqueue_mail('applicant@example.com', 'We got it', 'Thanks')").await.unwrap();
    assert!(
        eventually(&db, "select attempts >= 2 and status = 'queued' and last_error is not null from gateway.outbox")
            .await
    );

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    let sink = Sink::serve(listener);
    assert!(eventually(&db, "select status = 'sent' and sent_at is not null from gateway.outbox").await);
    assert_eq!(sink.count(), 1);
    let message = sink.messages.lock().unwrap()[0].clone();
    assert!(message.contains("Subject: We got it"), "{message}");
    assert!(message.contains("From: \"The Firm\" <noreply@firm.example>"), "{message}");
}

#[tokio::test]
async fn api_roles_cannot_queue_mail() {
    let app = spawn_app_with(&[("GATEWAY_OUTBOX", "off")]).await;
    let db = app.admin_client().await;
    for role in ["anon", "authenticated", "service_role", "authenticator"] {
        let err = db
            .batch_execute(&format!(
                "begin; set local role {role}; select gateway.enqueue_mail('x@example.com', 's', 'b'); commit;"
            ))
            .await
            .expect_err(role);
        assert_eq!(err.code(), Some(&tokio_postgres::error::SqlState::INSUFFICIENT_PRIVILEGE), "{role}: {err}");
        db.batch_execute("rollback").await.unwrap();
    }
}

#[tokio::test]
async fn extra_headers_reach_the_message_and_unsafe_ones_are_refused() {
    let dir = std::env::temp_dir().join(format!("gw-mail-{}", uuid::Uuid::new_v4().simple()));
    let dir_s = dir.to_string_lossy().to_string();
    let app = spawn_app_with(&[("GATEWAY_MAIL_DIR", &dir_s)]).await;
    let db = app.admin_client().await;
    db.batch_execute(
        r#"select gateway.enqueue_mail_with_headers('reader@example.com', 'Digest', 'Body', null,
             '{"List-Unsubscribe": "<https://x.example/u?t=1>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}')"#,
    )
    .await
    .unwrap();
    assert!(eventually(&db, "select bool_and(status = 'sent') from gateway.outbox").await);
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).collect();
    let text = std::fs::read_to_string(files[0].path()).unwrap();
    assert!(text.contains("List-Unsubscribe: <https://x.example/u?t=1>\r\n"), "{text}");
    assert!(text.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"), "{text}");
    for bad in [
        r#"{"Bcc": "x@example.com"}"#,
        r#"{"X-A": "a\r\nBcc: x@example.com"}"#,
        r#"{"Content-Type": "text/html"}"#,
        r#"{"X-A": 1}"#,
    ] {
        let err = db
            .execute(
                "select gateway.enqueue_mail_with_headers('r@example.com', 's', 'b', null, $1::text::jsonb)",
                &[&bad],
            )
            .await
            .expect_err(bad);
        assert_eq!(err.code(), Some(&tokio_postgres::error::SqlState::CHECK_VIOLATION), "{bad}: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn proven_recipients_skip_the_hourly_caps_and_others_do_not() {
    let app = spawn_app_with(&[("GATEWAY_OUTBOX", "off")]).await;
    let db = app.admin_client().await;
    db.batch_execute(
        "update gateway.outbox_caps set per_recipient_per_hour = 1;
         select gateway.enqueue_mail_with_headers('opted-in@example.com', 's', 'b', null, '{}', true) from generate_series(1, 3);
         select gateway.enqueue_mail_with_headers('stranger@example.com', 's', 'b', null, '{}') from generate_series(1, 3);",
    )
    .await
    .unwrap();
    let rows = db
        .query("select to_address, status, count(*) from gateway.outbox group by 1, 2 order by 1, 2", &[])
        .await
        .unwrap();
    let seen: Vec<(String, String, i64)> = rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect();
    assert_eq!(
        seen,
        vec![
            ("opted-in@example.com".into(), "queued".into(), 3),
            ("stranger@example.com".into(), "queued".into(), 1),
            ("stranger@example.com".into(), "suppressed".into(), 2),
        ]
    );
}
