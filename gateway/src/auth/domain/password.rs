//! Password policy (GoTrue's messages and reasons) and bcrypt hashing off the async workers: cost 10 on a few
//! threads of their own at a lower CPU priority (so sign-ins use idle CPU first and cannot starve reads), with a
//! decoy hash so unknown users cost as much as wrong passwords.

use crate::auth::error::{AuthError, ErrorCode};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Checks length (min, max 72 bytes) and required character sets.
pub fn check_strength(password: &str, min_length: usize, required: &[String]) -> Result<(), AuthError> {
    if password.len() > 72 {
        return Err(AuthError::validation("Password cannot be longer than 72 characters"));
    }
    let mut messages = Vec::new();
    let mut reasons = Vec::new();
    if password.chars().count() < min_length {
        messages.push(format!("Password should be at least {min_length} characters."));
        reasons.push("length");
    }
    if !required.is_empty() && !required.iter().all(|set| password.chars().any(|c| set.contains(c))) {
        messages.push(format!("Password should contain at least one character of each: {}.", required.join(", ")));
        reasons.push("characters");
    }
    if reasons.is_empty() {
        return Ok(());
    }
    let mut err = AuthError::detail(ErrorCode::WeakPassword, messages.join(" "));
    err.weak_password = Some(reasons);
    Err(err)
}

/// The niceness of the hashing threads: under full load they get roughly a tenth of the CPU share of a request
/// worker (CFS weight 110 against 1024), and all of whatever is idle.
pub const DEFAULT_NICE: u32 = 10;

type Job = Box<dyn FnOnce() + Send>;

/// Threads that run bcrypt, at most one hash each at a time; jobs queue in arrival order.
struct HashThreads {
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl HashThreads {
    fn start(threads: usize, nice: u32) -> Self {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new().name(format!("password-hash-{i}")).spawn(move || {
                lower_priority(nice);
                // the lock is held only while waiting for the next job
                while let Some(job) = rx.lock().ok().and_then(|r| r.recv().ok()) {
                    job();
                }
            });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "could not start a password hashing thread");
            }
        }
        HashThreads { jobs: Mutex::new(tx) }
    }

    async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, AuthError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(f());
        });
        self.jobs
            .lock()
            .map_err(|_| AuthError::internal("hash queue poisoned"))?
            .send(job)
            .map_err(AuthError::internal)?;
        rx.await.map_err(AuthError::internal)
    }
}

/// Lowers this thread's priority to `nice` (a failure leaves it at the default and is logged).
fn lower_priority(nice: u32) {
    if nice == 0 {
        return;
    }
    // Linux keeps the nice value per thread: `setpriority(PRIO_PROCESS, 0, …)` sets the calling thread's
    if let Err(e) = rustix::process::setpriority_process(None, nice.min(19) as i32) {
        tracing::warn!(error = %e, nice, "could not lower the password hashing thread's priority");
    }
}

/// Hashes and verifies passwords on its own threads.
pub struct PasswordHasher {
    threads: HashThreads,
    cost: u32,
    decoy: OnceCell<String>,
}

impl PasswordHasher {
    /// `concurrency` hashing threads at [`DEFAULT_NICE`].
    pub fn new(concurrency: usize, cost: u32) -> Self {
        Self::with_priority(concurrency, cost, DEFAULT_NICE)
    }

    pub fn with_priority(concurrency: usize, cost: u32, nice: u32) -> Self {
        PasswordHasher { threads: HashThreads::start(concurrency, nice), cost, decoy: OnceCell::new() }
    }

    pub async fn hash(&self, password: &str) -> Result<String, AuthError> {
        let (password, cost) = (password.to_string(), self.cost);
        self.threads.run(move || bcrypt::hash(password, cost)).await?.map_err(AuthError::internal)
    }

    /// Verifies against `hash`, or against the decoy hash when there is none (unknown user, no password), so
    /// both branches take the same time; a missing hash never verifies.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> Result<bool, AuthError> {
        let decoy = self.decoy.get_or_try_init(|| self.hash("decoy password that never matches")).await?.clone();
        let real = hash.filter(|h| h.starts_with("$2")).map(str::to_string);
        let target = real.clone().unwrap_or(decoy);
        let password = password.to_string();
        let ok = self.threads.run(move || bcrypt::verify(password, &target).unwrap_or(false)).await?;
        Ok(ok && real.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enforces_length_and_character_sets() {
        assert!(check_strength("123456", 6, &[]).is_ok());
        let e = check_strength("12345", 6, &[]).unwrap_err();
        assert_eq!(e.code.as_str(), "weak_password");
        assert_eq!(e.message, "Password should be at least 6 characters.");
        assert_eq!(e.weak_password, Some(vec!["length"]));
        let sets = vec!["abcdefghijklmnopqrstuvwxyz".to_string(), "0123456789".to_string()];
        let e = check_strength("ABCDEFGH", 6, &sets).unwrap_err();
        assert_eq!(e.weak_password, Some(vec!["characters"]));
        assert_eq!(check_strength(&"x".repeat(73), 6, &[]).unwrap_err().code.as_str(), "validation_failed");
    }

    #[tokio::test]
    async fn hashing_threads_run_at_the_lower_priority() {
        let hasher = PasswordHasher::with_priority(1, 4, 7);
        // /proc/thread-self/stat: the 19th field is the thread's nice value
        let stat =
            hasher.threads.run(|| std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default()).await.unwrap();
        let nice = stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().nth(16).map(str::to_string));
        assert_eq!(nice.as_deref(), Some("7"), "{stat}");
    }

    #[tokio::test]
    async fn verifies_real_hashes_and_never_the_decoy() {
        let hasher = PasswordHasher::new(2, 4);
        let hash = hasher.hash("correct horse").await.unwrap();
        assert!(hash.starts_with("$2"));
        assert!(hasher.verify("correct horse", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("wrong", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("decoy password that never matches", None).await.unwrap());
        assert!(!hasher.verify("anything", Some("")).await.unwrap());
    }
}
