//! The `Prefer` header: every `Prefer` header split on `,`, first occurrence of each kind wins, unknown tokens
//! kept so `handling=strict` can reject them (PostgREST `Preferences.hs`).

use http::HeaderMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Return {
    Minimal,
    HeadersOnly,
    Representation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    Exact,
    Planned,
    Estimated,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    MergeDuplicates,
    IgnoreDuplicates,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tx {
    Commit,
    Rollback,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preferences {
    pub return_: Option<Return>,
    pub count: Option<Count>,
    pub resolution: Option<Resolution>,
    pub missing_default: Option<bool>,
    pub tx: Option<Tx>,
    pub strict: Option<bool>,
    pub max_affected: Option<i64>,
    pub timezone: Option<String>,
    /// Tokens not understood (reported with `handling=strict`).
    pub invalid: Vec<String>,
}

impl Preferences {
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let mut p = Preferences::default();
        static PREFER: http::HeaderName = http::HeaderName::from_static("prefer");
        for value in headers.get_all(&PREFER).iter().filter_map(|v| v.to_str().ok()) {
            for token in value.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                p.apply(token);
            }
        }
        p
    }

    fn apply(&mut self, token: &str) {
        fn set<T>(slot: &mut Option<T>, v: T) {
            if slot.is_none() {
                *slot = Some(v);
            }
        }
        match token {
            "return=minimal" => set(&mut self.return_, Return::Minimal),
            "return=headers-only" => set(&mut self.return_, Return::HeadersOnly),
            "return=representation" => set(&mut self.return_, Return::Representation),
            "count=exact" => set(&mut self.count, Count::Exact),
            "count=planned" => set(&mut self.count, Count::Planned),
            "count=estimated" => set(&mut self.count, Count::Estimated),
            "resolution=merge-duplicates" => set(&mut self.resolution, Resolution::MergeDuplicates),
            "resolution=ignore-duplicates" => set(&mut self.resolution, Resolution::IgnoreDuplicates),
            "missing=default" => set(&mut self.missing_default, true),
            "missing=null" => set(&mut self.missing_default, false),
            "tx=commit" => set(&mut self.tx, Tx::Commit),
            "tx=rollback" => set(&mut self.tx, Tx::Rollback),
            "handling=strict" => set(&mut self.strict, true),
            "handling=lenient" => set(&mut self.strict, false),
            // removed in PostgREST 12 and ignored there
            "params=single-object" | "params=multiple-objects" => {}
            t => {
                if let Some(n) = t.strip_prefix("max-affected=").and_then(|n| n.parse::<i64>().ok()) {
                    set(&mut self.max_affected, n);
                } else if let Some(tz) = t.strip_prefix("timezone=") {
                    set(&mut self.timezone, tz.to_string());
                } else {
                    self.invalid.push(t.to_string());
                }
            }
        }
    }

    pub fn is_strict(&self) -> bool {
        self.strict == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_occurrence_wins_and_unknowns_are_kept() {
        let mut h = HeaderMap::new();
        h.append("prefer", "count=exact, return=representation".parse().unwrap());
        h.append("prefer", "return=minimal, foo=bar, handling=strict, max-affected=3".parse().unwrap());
        let p = Preferences::from_headers(&h);
        assert_eq!(p.count, Some(Count::Exact));
        assert_eq!(p.return_, Some(Return::Representation));
        assert_eq!(p.max_affected, Some(3));
        assert!(p.is_strict());
        assert_eq!(p.invalid, vec!["foo=bar".to_string()]);
    }
}
