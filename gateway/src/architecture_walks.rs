//! Keeps `gateway/ARCHITECTURE.md`'s walks true: every code name a walk (an `## A …` section) gives — a path
//! written `a::b::c` or a file `x/y.rs` — must exist in the tree, so a rename that forgets the document fails here.

use std::fs;
use std::path::{Path, PathBuf};

const DOC: &str = include_str!("../ARCHITECTURE.md");
const ITEM_KEYWORDS: [&str; 9] = ["fn", "struct", "enum", "trait", "type", "const", "static", "mod", "impl"];

/// The crate's `src` folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The walks: each `## A …` section as (heading, text).
fn walks(doc: &str) -> Vec<(&str, &str)> {
    doc.split("\n## ").skip(1).filter(|s| s.starts_with("A ")).map(|s| s.split_once('\n').unwrap_or((s, ""))).collect()
}

/// The code spans of `text` that are code names: paths with `::` (a call's arguments and `crate::` left off) and
/// `.rs` files; other spans (headers, SQL, URLs) are prose.
fn code_names(text: &str) -> Vec<String> {
    let spans = text.split('`').skip(1).step_by(2);
    let names = spans.map(|s| s.split('(').next().unwrap_or(s).trim().trim_start_matches("crate::").to_string());
    let is_name = |n: &String| n.chars().all(|c| c.is_ascii_alphanumeric() || "_:/.".contains(c));
    names.filter(|n| (n.contains("::") || n.ends_with(".rs")) && is_name(n)).collect()
}

/// Whether `name` exists: a `.rs` file under `src/`, the crate or the workspace; or a module path from the crate's
/// root or from a top-level module (`request::parse` in the REST walk is `rest::request::parse`).
fn exists(src: &Path, name: &str) -> bool {
    if name.ends_with(".rs") {
        let crate_dir = src.parent().unwrap_or(src);
        return [src, crate_dir, crate_dir.parent().unwrap_or(crate_dir)].iter().any(|d| d.join(name).is_file());
    }
    let segments: Vec<&str> = name.split("::").collect();
    let top_level = fs::read_dir(src).into_iter().flatten().flatten().map(|e| e.path()).filter(|p| p.is_dir());
    std::iter::once(src.to_path_buf()).chain(top_level).any(|base| resolves(&base, &segments))
}

/// The longest prefix of `segments` that is a module under `base`, then at most two items (a function, a type, a
/// type's method) defined in that module's file or the files of its folder.
fn resolves(base: &Path, segments: &[&str]) -> bool {
    let (mut dir, mut file, mut used) = (base.to_path_buf(), None, 0);
    for segment in segments {
        let folder = dir.join(segment);
        let candidates = [folder.join("mod.rs"), dir.join(format!("{segment}.rs"))];
        let Some(found) = candidates.into_iter().find(|f| f.is_file()) else { break };
        (dir, file, used) = (folder, Some(found), used + 1);
    }
    let Some(file) = file else { return false };
    let items = &segments[used..];
    let mut texts = vec![fs::read_to_string(&file).unwrap_or_default()];
    let siblings = fs::read_dir(&dir).into_iter().flatten().flatten().map(|e| e.path());
    texts.extend(
        siblings
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .map(|p| fs::read_to_string(p).unwrap_or_default()),
    );
    items.len() <= 2 && items.iter().all(|item| texts.iter().any(|t| defines(t, item)))
}

/// Whether `text` defines `item` (`fn item`, `struct item`, …, followed by something other than a name character).
fn defines(text: &str, item: &str) -> bool {
    ITEM_KEYWORDS.iter().any(|kw| {
        let needle = format!("{kw} {item}");
        text.match_indices(&needle).any(|(at, _)| {
            let before = text[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let after = text[at + needle.len()..].chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            before && after
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_in_the_walks_exists() {
        let walks = walks(DOC);
        assert!(walks.len() >= 4, "REST, Storage, sign-in and postgres_changes walks expected, found {}", walks.len());
        for (heading, text) in walks {
            let names = code_names(text);
            assert!(names.len() >= 5, "the walk \"{heading}\" names too little code to check: {names:?}");
            let missing: Vec<_> = names.iter().filter(|n| !exists(&src(), n)).collect();
            assert!(missing.is_empty(), "ARCHITECTURE.md, \"{heading}\": no such file or item {missing:?}");
        }
    }

    #[test]
    fn a_name_that_is_not_there_is_reported() {
        let src = src();
        assert!(exists(&src, "rest::handler::relation"));
        assert!(exists(&src, "request::parse"));
        assert!(exists(&src, "rest/run.rs"));
        assert!(!exists(&src, "rest::handler::no_such_function"));
        assert!(!exists(&src, "rest::no_such_module::relation"));
        assert!(!exists(&src, "rest/no_such_file.rs"));
        assert!(!exists(&src, "rest::handler::relation::and::more"));
    }

    #[test]
    fn code_names_leave_prose_out() {
        let text = "`core::conn` and `rest/run.rs`, `set_config('role', …)`, `Prefer: timezone`, `x::y(a, b)`";
        assert_eq!(code_names(text), ["core::conn", "rest/run.rs", "x::y"]);
    }
}
