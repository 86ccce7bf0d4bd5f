//! Values parsed at the boundary (e-mail, password policy, redirect URL, token formats): pure and unit-tested.

pub mod claims;
pub mod email;
pub mod metadata;
pub mod password;
pub mod pkce;
pub mod redirect;
pub mod token_response;
pub mod tokens;
