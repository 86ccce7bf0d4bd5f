//! The retention chain down to the disk: a candidate who signed up, uploaded a CV and applied through the APIs,
//! then said nothing for two years (a moved clock, as sql/tests/32-retention.sql does), is erased by the retention
//! pass, and the gateway's storage sweep removes the CV's file from the storage folder; a file outside the rule stays.

use crate::auth_helpers::signup_session;
use crate::storage_support::{pdf_bytes, spawn_storage, StorageApp};
use reqwest::Method;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

const EMAIL: &str = "casey.candidate@example.com";

/// Every file under the storage folder's `objects/`.
fn object_files(s: &StorageApp) -> BTreeSet<PathBuf> {
    fn walk(p: &Path, into: &mut BTreeSet<PathBuf>) {
        for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                walk(&e.path(), into);
            } else {
                into.insert(e.path());
            }
        }
    }
    let mut files = BTreeSet::new();
    walk(&s.dir.join("objects"), &mut files);
    files
}

/// A request as the signed-in candidate (the anon key as `apikey`, the session as bearer).
fn as_candidate(s: &StorageApp, method: Method, url: String, token: &str) -> reqwest::RequestBuilder {
    s.app.http.request(method, url).header("apikey", &s.app.anon_key).bearer_auth(token)
}

/// One retention pass as of `now() + moved`, as the scheduled job runs it; returns its summary.
async fn retention_pass(s: &StorageApp, moved: &str) -> Value {
    let db = s.app.admin_client().await;
    let q = format!("select private.run_retention(now() + interval '{moved}')");
    db.query_one(&q, &[]).await.unwrap().get(0)
}

async fn count(s: &StorageApp, query: &str) -> i64 {
    s.app.admin_client().await.query_one(query, &[]).await.unwrap().get(0)
}

/// The candidate signs up, uploads a CV into a fresh folder and applies with it; returns the CV's object name.
async fn candidate_applies_with_a_cv(s: &StorageApp) -> String {
    let session = signup_session(&s.app, EMAIL, "a-long-password-1").await;
    let token = session["access_token"].as_str().unwrap();
    let cv = format!("{}/casey-cv.pdf", uuid::Uuid::new_v4());
    let res = as_candidate(s, Method::POST, s.url(&format!("/object/cvs/{cv}")), token)
        .header("content-type", "application/pdf")
        .body(pdf_bytes())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let db = s.app.admin_client().await;
    let job: uuid::Uuid =
        db.query_one("select id from public.jobs where job_id = 'PPR-2001'", &[]).await.unwrap().get(0);
    let application = json!({"job_id": job, "first_name": "Casey", "last_name": "Candidate", "email": EMAIL,
        "phone": "07700 900123", "cv_object": cv, "privacy_consent": true});
    let res = as_candidate(s, Method::POST, s.app.url("/rest/v1/applications"), token)
        .header("prefer", "return=minimal")
        .json(&application)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    cv
}

#[tokio::test]
async fn a_candidate_silent_for_two_years_is_erased_down_to_the_cv_file() {
    let s = spawn_storage(&[("GATEWAY_STORAGE_SWEEP_SECS", "0.1"), ("GOTRUE_MAILER_AUTOCONFIRM", "true")]).await;
    s.sql("insert into public.jobs (job_id, status, title, company) values ('PPR-2001', 'active', 'Site Manager', 'Northbank Estates')")
        .await;
    s.create_bucket(json!({"name": "site"})).await;
    assert_eq!(s.upload(&s.app.service_key, "site/brochure.pdf", "application/pdf", pdf_bytes()).await.0, 200);
    let before = object_files(&s);
    let cv = candidate_applies_with_a_cv(&s).await;
    let added: Vec<_> = object_files(&s).difference(&before).cloned().collect();
    assert_eq!(added.len(), 1, "the CV upload stored one file: {added:?}");
    let cv_file = &added[0];
    assert_eq!(std::fs::read(cv_file).unwrap(), pdf_bytes());

    // A year and a day on: the notice, and nothing erased.
    let first = retention_pass(&s, "1 year 1 day").await;
    assert_eq!(first["notices"], 1, "{first}");
    assert_eq!(first["people_erased"], 0, "{first}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(cv_file.exists(), "the CV file stays while the person may still answer");

    // Two years and two days on, no answer: the person is erased, CV row included.
    let second = retention_pass(&s, "2 years 2 days").await;
    assert_eq!(second["people_erased"], 1, "{second}");
    let deleted = &second["deleted"];
    // The CV's object goes with its application (0201's trigger), before the "files" part runs: the rows and the
    // file on disk are checked below.
    assert_eq!((&deleted["applications"], &deleted["account"]), (&json!(1), &json!(1)), "{deleted}");
    let email_rows = format!(
        "select (select count(*) from public.applications where lower(email) = '{EMAIL}') \
              + (select count(*) from auth.users where lower(email) = '{EMAIL}') \
              + (select count(*) from storage.objects where bucket_id = 'cvs' and name = '{cv}')"
    );
    assert_eq!(count(&s, &email_rows).await, 0, "no application, account or object row is left");

    // The sweep (every 0.1 s here) takes the file off the disk; the unrelated file stays.
    for _ in 0..100 {
        if !cv_file.exists() && count(&s, "select count(*) from gateway.storage_sweep").await == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!cv_file.exists(), "the CV file is removed from the storage folder within 5 s");
    assert_eq!(count(&s, "select count(*) from gateway.storage_sweep").await, 0, "nothing left queued");
    assert_eq!(object_files(&s), before, "only the CV's file went");
    let res = s.req(Method::GET, &format!("/object/cvs/{cv}"), &s.app.service_key).send().await.unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], "not_found", "the Storage API no longer has it: {body}");
}
