//! The applications SQL (sql/migrations/0100_applications_cvs.sql) through the Storage API and as the anon role:
//! the cvs bucket's limits and policies, the two queued e-mails per application, one CV per application.

use crate::storage_support::{elf_bytes, pdf_bytes, spawn_storage, StorageApp};
use jsonwebtoken::{encode, EncodingKey, Header};
use reqwest::Method;
use serde_json::{json, Value};

const SECRET: &str = "test-legacy-secret-with-at-least-32-characters!";

/// The admin: a real auth user with the site's admin role (public.user_roles, read by public.is_admin()).
const ADMIN_ID: &str = "6f1c2a4e-0b7d-4c1e-9a51-2f3d4e5a6b7c";

/// The rows these tests add to the real site schema: an active job, the admin, the firm's inbox.
const SITE_FIXTURE: &str = r#"
insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
values ('6f1c2a4e-0b7d-4c1e-9a51-2f3d4e5a6b7c', 'authenticated', 'authenticated', 'admin@firm.example', now(), now(), now());
insert into public.user_roles (user_id, role) values ('6f1c2a4e-0b7d-4c1e-9a51-2f3d4e5a6b7c', 'admin');
update private.settings set value = 'inbox@firm.example' where key = 'firm_inbox';
insert into public.jobs (job_id, status, title, company) values ('PPR-1042', 'active', 'Senior Development Manager', 'Northbank Estates');
"#;

async fn app() -> StorageApp {
    let s = spawn_storage(&[("PGRST_JWT_SECRET", SECRET)]).await;
    s.sql(SITE_FIXTURE).await;
    s
}

fn admin_token() -> String {
    let exp = chrono::Utc::now().timestamp() + 600;
    let claims = json!({"sub": ADMIN_ID, "role": "authenticated", "email": "admin@firm.example", "exp": exp});
    encode(&Header::default(), &claims, &EncodingKey::from_secret(SECRET.as_bytes())).unwrap()
}

/// Inserts an application as the anon role with a forwarded client address.
async fn apply_as_anon(s: &StorageApp, email: &str, cv: &str) -> Result<(), tokio_postgres::Error> {
    let db = s.app.admin_client().await;
    let job: uuid::Uuid = db.query_one("select id from public.jobs where job_id = 'PPR-1042'", &[]).await?.get(0);
    db.batch_execute(&format!(
        "begin; set local role anon; select set_config('request.headers', '{{\"x-forwarded-for\": \"203.0.113.9\"}}', true); \
         insert into public.applications (job_id, first_name, last_name, email, phone, cv_object, privacy_consent) \
         values ('{job}', 'Ada', 'Lovelace', '{email}', '+44 1', '{cv}', true); commit;"
    ))
    .await
}

#[tokio::test]
async fn anon_uploads_a_cv_and_applies_and_two_mails_are_queued() {
    let s = app().await;
    let anon = s.app.anon_key.clone();
    let cv = format!("{}/cv.pdf", uuid::Uuid::new_v4());
    let (status, body) = s.upload(&anon, &format!("cvs/{cv}"), "application/pdf", pdf_bytes()).await;
    assert_eq!(status, 200, "{body}");
    apply_as_anon(&s, "ada@example.com", &cv).await.unwrap();
    let db = s.app.admin_client().await;
    let rows = db.query("select to_address, subject, body_text from gateway.outbox order by id", &[]).await.unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].get::<_, &str>(0), "inbox@firm.example");
    assert_eq!(rows[0].get::<_, &str>(1), "New application: Ada Lovelace for Senior Development Manager");
    assert!(rows[0].get::<_, &str>(2).contains(&cv));
    assert!(rows[0].get::<_, &str>(2).contains("/admin"));
    assert_eq!(rows[1].get::<_, &str>(0), "ada@example.com");
    assert!(rows[1].get::<_, &str>(2).contains("within 2 weeks"));
    // An application must point at an uploaded CV.
    assert!(apply_as_anon(&s, "bob@example.com", "no-such/cv.pdf").await.is_err());
}

#[tokio::test]
async fn cvs_are_write_once_for_anon_and_readable_by_admins() {
    let s = app().await;
    let anon = s.app.anon_key.clone();
    let folder = uuid::Uuid::new_v4();
    assert_eq!(s.upload(&anon, &format!("cvs/{folder}/cv.pdf"), "application/pdf", pdf_bytes()).await.0, 200);
    for (path, why) in [
        (format!("cvs/{folder}/cv.pdf"), "overwrite"),
        (format!("cvs/{folder}/second.pdf"), "reuse a folder"),
        ("cvs/not-a-uuid/cv.pdf".to_string(), "a guessable folder"),
        (format!("cvs/{}/a/cv.pdf", uuid::Uuid::new_v4()), "a nested folder"),
    ] {
        let (_, body) = s.upload(&anon, &path, "application/pdf", pdf_bytes()).await;
        assert!(["403", "409"].contains(&body["statusCode"].as_str().unwrap()), "{why}: {body}");
    }
    let (_, body) =
        s.upload(&anon, &format!("cvs/{}/cv.pdf", uuid::Uuid::new_v4()), "application/pdf", elf_bytes()).await;
    assert_eq!(body["statusCode"], "415");
    let (_, body) = s
        .upload(&anon, &format!("cvs/{}/cv.pdf", uuid::Uuid::new_v4()), "application/pdf", vec![b'%'; 10_500_000])
        .await;
    assert_eq!(body["statusCode"], "413");
    let res = s
        .req(Method::POST, &format!("/object/sign/cvs/{folder}/cv.pdf"), &anon)
        .json(&json!({"expiresIn": 60}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.json::<Value>().await.unwrap()["statusCode"], "404");

    let admin = admin_token();
    let res = s
        .req(Method::POST, &format!("/object/sign/cvs/{folder}/cv.pdf"), &admin)
        .json(&json!({"expiresIn": 60}))
        .send()
        .await
        .unwrap();
    let signed: Value = res.json().await.unwrap();
    let url = signed["signedURL"].as_str().expect("admin can sign");
    let bytes = s.app.http.get(s.url(url)).send().await.unwrap().bytes().await.unwrap();
    assert_eq!(bytes.as_ref(), pdf_bytes().as_slice());
}

#[tokio::test]
async fn the_same_address_is_never_locked_out_and_one_cv_backs_one_application() {
    let s = app().await;
    let anon = s.app.anon_key.clone();
    let mut cvs = vec![];
    for i in 0..6 {
        let cv = format!("{}/cv.pdf", uuid::Uuid::new_v4());
        assert_eq!(s.upload(&anon, &format!("cvs/{cv}"), "application/pdf", pdf_bytes()).await.0, 200);
        apply_as_anon(&s, "same@example.com", &cv).await.unwrap_or_else(|e| panic!("application {i}: {e}"));
        cvs.push(cv);
    }
    let err = apply_as_anon(&s, "other@example.com", &cvs[0]).await.unwrap_err();
    assert_eq!(err.code().map(|c| c.code()), Some("23505"), "a CV already sent backs no second application");
}
