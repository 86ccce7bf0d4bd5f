//! `Accept` negotiation: which body shape the client wants (PostgREST `MediaType.hs`, q-factors honoured).

use crate::rest::error::Error;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MediaType {
    /// `application/json`, `*/*`, `application/vnd.pgrst.array+json`
    Json {
        strip_nulls: bool,
    },
    /// `application/vnd.pgrst.object+json`
    SingleObject {
        strip_nulls: bool,
    },
    Csv,
    GeoJson,
    /// `application/vnd.pgrst.plan+(json|text)`
    Plan {
        json: bool,
        for_media: String,
        options: Vec<String>,
    },
}

impl MediaType {
    /// The `Content-Type` of the body; borrowed for every media type but the plan's (no allocation per request).
    pub fn content_type(&self) -> Cow<'static, str> {
        match self {
            MediaType::Json { strip_nulls: false } => "application/json; charset=utf-8".into(),
            MediaType::Json { strip_nulls: true } => {
                "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8".into()
            }
            MediaType::SingleObject { strip_nulls: false } => "application/vnd.pgrst.object+json; charset=utf-8".into(),
            MediaType::SingleObject { strip_nulls: true } => {
                "application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8".into()
            }
            MediaType::Csv => "text/csv; charset=utf-8".into(),
            MediaType::GeoJson => "application/geo+json; charset=utf-8".into(),
            MediaType::Plan { json, for_media, .. } => format!(
                "application/vnd.pgrst.plan+{}; for=\"{for_media}\"; charset=utf-8",
                if *json { "json" } else { "text" }
            )
            .into(),
        }
    }

    pub fn is_singular(&self) -> bool {
        matches!(self, MediaType::SingleObject { .. })
    }
}

struct Candidate {
    essence: String,
    params: Vec<(String, String)>,
    q: f32,
}

fn parse_one(part: &str) -> Candidate {
    let mut pieces = part.split(';').map(str::trim);
    let essence = pieces.next().unwrap_or("").to_ascii_lowercase();
    let mut params = vec![];
    let mut q = 1.0;
    for p in pieces {
        let (k, v) = p.split_once('=').unwrap_or((p, ""));
        let k = k.trim().to_ascii_lowercase();
        let v = v.trim().trim_matches('"').to_string();
        if k == "q" {
            q = v.parse().unwrap_or(1.0);
        } else {
            params.push((k, v));
        }
    }
    Candidate { essence, params, q }
}

fn decode(c: &Candidate, plan_enabled: bool) -> Option<MediaType> {
    let nulls = c.params.iter().any(|(k, v)| k == "nulls" && v == "stripped");
    Some(match c.essence.as_str() {
        "*/*" | "application/*" | "application/json" | "application/vnd.pgrst.array+json" => {
            MediaType::Json { strip_nulls: nulls }
        }
        "application/vnd.pgrst.array" => MediaType::Json { strip_nulls: nulls },
        "application/vnd.pgrst.object+json" | "application/vnd.pgrst.object" => {
            MediaType::SingleObject { strip_nulls: nulls }
        }
        "text/csv" | "text/*" => MediaType::Csv,
        "application/geo+json" => MediaType::GeoJson,
        "application/vnd.pgrst.plan" | "application/vnd.pgrst.plan+json" | "application/vnd.pgrst.plan+text"
            if plan_enabled =>
        {
            let for_media = c
                .params
                .iter()
                .find(|(k, _)| k == "for")
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| "application/json".into());
            let options = c
                .params
                .iter()
                .find(|(k, _)| k == "options")
                .map(|(_, v)| v.split('|').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
                .unwrap_or_default();
            MediaType::Plan { json: !c.essence.ends_with("+text"), for_media, options }
        }
        _ => return None,
    })
}

/// Picks the best supported media type from `Accept` (absent → JSON).
pub fn negotiate(accept: Option<&str>, plan_enabled: bool) -> Result<MediaType, Error> {
    let Some(accept) = accept.map(str::trim).filter(|a| !a.is_empty()) else {
        return Ok(MediaType::Json { strip_nulls: false });
    };
    let mut candidates: Vec<Candidate> = split_accept(accept).iter().map(|p| parse_one(p)).collect();
    // stable sort keeps the client's order among equal q
    candidates.sort_by(|a, b| b.q.partial_cmp(&a.q).unwrap_or(std::cmp::Ordering::Equal));
    candidates
        .iter()
        .filter(|c| c.q > 0.0)
        .find_map(|c| decode(c, plan_enabled))
        .ok_or_else(|| Error::MediaType(accept.to_string()))
}

/// Splits on commas outside double quotes (`for="a, b"` stays whole).
fn split_accept(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut quoted = false;
    for ch in s.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                cur.push(ch)
            }
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out.into_iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiates_common_types() {
        assert_eq!(negotiate(None, false).unwrap(), MediaType::Json { strip_nulls: false });
        assert_eq!(negotiate(Some("*/*"), false).unwrap(), MediaType::Json { strip_nulls: false });
        assert!(negotiate(Some("application/vnd.pgrst.object+json"), false).unwrap().is_singular());
        assert_eq!(negotiate(Some("text/csv"), false).unwrap(), MediaType::Csv);
        assert_eq!(
            negotiate(Some("application/vnd.pgrst.array+json;nulls=stripped"), false).unwrap(),
            MediaType::Json { strip_nulls: true }
        );
        assert!(matches!(negotiate(Some("text/html"), false), Err(Error::MediaType(_))));
        assert!(negotiate(Some("application/vnd.pgrst.plan+json; for=\"application/json\""), false).is_err());
        let plan = negotiate(
            Some("application/vnd.pgrst.plan+text; for=\"application/json\"; options=analyze|verbose;"),
            true,
        )
        .unwrap();
        assert_eq!(
            plan,
            MediaType::Plan {
                json: false,
                for_media: "application/json".into(),
                options: vec!["analyze".into(), "verbose".into()]
            }
        );
    }
}
