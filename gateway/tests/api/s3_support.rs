//! An S3 bucket of its own for a test, on moto's S3 server (PyPI `moto[s3,server]`, installed by
//! scripts/install-test-deps.sh): the one `TEST_S3_ENDPOINT` names (scripts/with-moto.sh, as `make test` runs the
//! suite), else one started for the test.

use std::time::Duration;

/// A moto server this test started; stopped when dropped.
struct Moto(std::process::Child);

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub struct S3Bucket {
    pub endpoint: String,
    pub name: String,
    _moto: Option<Moto>,
}

impl S3Bucket {
    /// A new, empty bucket.
    pub async fn create() -> S3Bucket {
        let (endpoint, moto) = match std::env::var("TEST_S3_ENDPOINT") {
            Ok(url) if !url.is_empty() => (url, None),
            _ => {
                let (url, moto) = start_moto().await;
                (url, Some(moto))
            }
        };
        let name = format!("gw-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let res = reqwest::Client::new().put(format!("{endpoint}/{name}")).send().await.expect("moto answers");
        assert!(res.status().is_success(), "create S3 bucket: {}", res.status());
        S3Bucket { endpoint, name, _moto: moto }
    }

    /// The gateway's configuration for this bucket (`STORAGE_BACKEND=s3`).
    pub fn vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("STORAGE_BACKEND", "s3".into()),
            ("GLOBAL_S3_BUCKET", self.name.clone()),
            ("GLOBAL_S3_ENDPOINT", self.endpoint.clone()),
            ("GLOBAL_S3_FORCE_PATH_STYLE", "true".into()),
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
            ("REGION", "us-east-1".into()),
        ]
    }

    /// How many objects the bucket holds.
    pub async fn keys(&self) -> usize {
        let url = format!("{}/{}?list-type=2", self.endpoint, self.name);
        let xml = reqwest::get(url).await.unwrap().text().await.unwrap();
        xml.matches("<Key>").count()
    }
}

async fn start_moto() -> (String, Moto) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new("python3")
        .args(["-m", "moto.server", "-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("python3 with moto (scripts/install-test-deps.sh installs moto[s3,server])");
    // owned at once, so it is stopped and reaped however this ends
    let moto = Moto(child);
    let url = format!("http://127.0.0.1:{port}");
    for _ in 0..300 {
        if reqwest::get(&url).await.is_ok() {
            return (url, moto);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("moto's S3 server did not start on {url} (pip install \"moto[s3,server]\")");
}
