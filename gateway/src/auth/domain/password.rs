//! Password policy (GoTrue's messages and reasons) and bcrypt hashing off the async workers: cost 10 on
//! `spawn_blocking`, bounded by a semaphore, with a decoy hash so unknown users cost as much as wrong passwords.

use crate::auth::error::AuthError;
use axum::http::StatusCode;
use std::sync::Arc;
use tokio::sync::{OnceCell, Semaphore};

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
    let mut err = AuthError::new(StatusCode::UNPROCESSABLE_ENTITY, "weak_password", messages.join(" "));
    err.weak_password = Some(reasons);
    Err(err)
}

/// Hashes and verifies passwords on the blocking pool, at most `permits` at a time.
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
    cost: u32,
    decoy: OnceCell<String>,
}

impl PasswordHasher {
    pub fn new(concurrency: usize, cost: u32) -> Self {
        PasswordHasher { permits: Arc::new(Semaphore::new(concurrency.max(1))), cost, decoy: OnceCell::new() }
    }

    pub async fn hash(&self, password: &str) -> Result<String, AuthError> {
        let _permit = self.permits.acquire().await.map_err(AuthError::internal)?;
        let (password, cost) = (password.to_string(), self.cost);
        tokio::task::spawn_blocking(move || bcrypt::hash(password, cost))
            .await
            .map_err(AuthError::internal)?
            .map_err(AuthError::internal)
    }

    /// Verifies against `hash`, or against the decoy hash when there is none (unknown user, no password), so
    /// both branches take the same time; a missing hash never verifies.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> Result<bool, AuthError> {
        let decoy = self.decoy.get_or_try_init(|| self.hash("decoy password that never matches")).await?.clone();
        let real = hash.filter(|h| h.starts_with("$2")).map(str::to_string);
        let target = real.clone().unwrap_or(decoy);
        let _permit = self.permits.acquire().await.map_err(AuthError::internal)?;
        let password = password.to_string();
        let ok = tokio::task::spawn_blocking(move || bcrypt::verify(password, &target).unwrap_or(false))
            .await
            .map_err(AuthError::internal)?;
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
        assert_eq!(e.code, "weak_password");
        assert_eq!(e.message, "Password should be at least 6 characters.");
        assert_eq!(e.weak_password, Some(vec!["length"]));
        let sets = vec!["abcdefghijklmnopqrstuvwxyz".to_string(), "0123456789".to_string()];
        let e = check_strength("ABCDEFGH", 6, &sets).unwrap_err();
        assert_eq!(e.weak_password, Some(vec!["characters"]));
        assert_eq!(check_strength(&"x".repeat(73), 6, &[]).unwrap_err().code, "validation_failed");
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
