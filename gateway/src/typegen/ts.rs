//! TypeScript types as a small tree, and how Prettier lays each form out (object types, unions, tuples, arrays,
//! intersections, quoted keys and strings), as documents for [`super::doc`].

use super::doc::{concat, group, if_break, indent, join, text, Doc};

/// A TypeScript type.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// A keyword or reference printed as is: `string`, `Json`, `Database["public"]["Enums"]["e"]`.
    Raw(String),
    /// A string literal type.
    Str(String),
    Union(Vec<Ty>),
    Array(Box<Ty>),
    Intersection(Vec<Ty>),
    /// An object type; `broken` when the source had a line break after `{` (Prettier keeps such objects expanded).
    Object {
        members: Vec<Member>,
        broken: bool,
    },
    /// A tuple type (`["a", "b"]`).
    Tuple(Vec<Ty>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: Key,
    pub optional: bool,
    pub ty: Ty,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// A property name (quoted only when it is not an identifier).
    Name(String),
    /// Printed as is (`[_ in never]`).
    Raw(String),
}

impl Ty {
    pub fn raw(s: &str) -> Ty {
        Ty::Raw(s.to_string())
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self, Ty::Raw(s) if s == "unknown" || s == "any")
    }

    /// `T | null` unless `T` is `unknown` (which already holds null) or not nullable.
    pub fn nullable(self, nullable: bool) -> Ty {
        if !nullable || self.is_unknown() {
            return self;
        }
        union(vec![self, Ty::raw("null")])
    }

    /// `T[]`; on an intersection the brackets bind to its last member, as TypeScript parses `A & B[]`.
    pub fn array(self) -> Ty {
        match self {
            Ty::Intersection(mut parts) => {
                if let Some(last) = parts.pop() {
                    parts.push(last.array());
                }
                Ty::Intersection(parts)
            }
            other => Ty::Array(Box::new(other)),
        }
    }
}

/// A union with nested unions flattened (`("a" | "b") | null` parses as one union).
pub fn union(types: Vec<Ty>) -> Ty {
    let mut flat = Vec::new();
    for t in types {
        match t {
            Ty::Union(inner) => flat.extend(inner),
            other => flat.push(other),
        }
    }
    if flat.len() == 1 {
        return flat.remove(0);
    }
    Ty::Union(flat)
}

pub fn member(key: &str, optional: bool, ty: Ty) -> Member {
    Member { key: Key::Name(key.to_string()), optional, ty }
}

/// An object type written with a line break after `{` (kept expanded).
pub fn object(members: Vec<Member>) -> Ty {
    Ty::Object { members, broken: true }
}

/// An object type written on one line (expanded only when too wide).
pub fn inline_object(members: Vec<Member>) -> Ty {
    Ty::Object { members, broken: false }
}

/// `{ [_ in never]: never }`, the empty section.
pub fn never_section() -> Ty {
    object(vec![Member { key: Key::Raw("[_ in never]".into()), optional: false, ty: Ty::raw("never") }])
}

pub fn to_doc(ty: &Ty) -> Doc {
    match ty {
        Ty::Raw(s) => text(s.as_str()),
        Ty::Str(s) => text(string_literal(s)),
        Ty::Union(types) => union_doc(types),
        Ty::Array(inner) => match **inner {
            Ty::Union(_) | Ty::Intersection(_) => concat(vec![text("("), to_doc(inner), text(")[]")]),
            _ => concat(vec![to_doc(inner), text("[]")]),
        },
        Ty::Intersection(types) => intersection_doc(types),
        Ty::Object { members, broken } => object_doc(members, *broken),
        Ty::Tuple(items) => tuple_doc(items.iter().map(to_doc).collect()),
    }
}

fn is_object(t: &Ty) -> bool {
    matches!(t, Ty::Object { .. })
}

/// Prettier's union: `{…} | null` hugs; otherwise one line, or each member on its own line after `| `.
fn union_doc(types: &[Ty]) -> Doc {
    let nulls = types.iter().filter(|t| matches!(t, Ty::Raw(s) if s == "null" || s == "void")).count();
    if types.len() - 1 == nulls && types.iter().any(is_object) {
        return join(text(" | "), types.iter().map(to_doc).collect());
    }
    let members = types.iter().map(|t| indent(to_doc(t))).collect();
    let code = concat(vec![
        if_break(concat(vec![Doc::Line, text("| ")]), text("")),
        join(concat(vec![Doc::Line, text("| ")]), members),
    ]);
    group(indent(code), false)
}

/// Prettier's intersection: object and non-object members stay on one line; two non-objects may break.
fn intersection_doc(types: &[Ty]) -> Doc {
    let mut parts = Vec::new();
    for (i, t) in types.iter().enumerate() {
        if i == 0 {
            parts.push(to_doc(t));
        } else if !is_object(&types[i - 1]) && !is_object(t) {
            parts.push(indent(concat(vec![text(" &"), Doc::Line, to_doc(t)])));
        } else {
            parts.push(text(" & "));
            parts.push(if i > 1 { indent(to_doc(t)) } else { to_doc(t) });
        }
    }
    group(concat(parts), false)
}

fn object_doc(members: &[Member], broken: bool) -> Doc {
    if members.is_empty() {
        return text("{}");
    }
    let items = members.iter().map(member_doc).collect();
    let separator = concat(vec![if_break(text(""), text(";")), Doc::Line]);
    group(
        concat(vec![text("{"), indent(concat(vec![Doc::Line, join(separator, items)])), Doc::Line, text("}")]),
        broken,
    )
}

fn member_doc(m: &Member) -> Doc {
    let key = match &m.key {
        Key::Name(name) => property_key(name),
        Key::Raw(raw) => raw.clone(),
    };
    let opt = if m.optional { "?" } else { "" };
    group(concat(vec![text(format!("{key}{opt}: ")), to_doc(&m.ty)]), false)
}

/// A tuple or array literal: one line, or one item per line with a trailing comma.
pub fn tuple_doc(items: Vec<Doc>) -> Doc {
    if items.is_empty() {
        return text("[]");
    }
    let items = items.into_iter().map(|d| group(d, false)).collect();
    group(
        concat(vec![
            text("["),
            indent(concat(vec![
                Doc::SoftLine,
                join(concat(vec![text(","), Doc::Line]), items),
                if_break(text(","), text("")),
            ])),
            Doc::SoftLine,
            text("]"),
        ]),
        false,
    )
}

/// An object literal (`{ a: 1, b: 2 }` or one property per line with trailing commas); `broken` as for types.
pub fn object_literal_doc(props: Vec<(String, Doc)>, broken: bool) -> Doc {
    if props.is_empty() {
        return text("{}");
    }
    let items = props.into_iter().map(|(k, v)| group(concat(vec![text(format!("{}: ", property_key(&k))), v]), false));
    group(
        concat(vec![
            text("{"),
            indent(concat(vec![
                Doc::Line,
                join(concat(vec![text(","), Doc::Line]), items.collect()),
                if_break(text(","), text("")),
            ])),
            Doc::Line,
            text("}"),
        ]),
        broken,
    )
}

/// A property name as Prettier prints it with `quoteProps: "as-needed"`: bare when it is an identifier.
pub fn property_key(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        string_literal(name)
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else { return false };
    (first == '_' || first == '$' || first.is_alphabetic())
        && chars.all(|c| c == '_' || c == '$' || c.is_alphanumeric())
}

/// A string literal as `JSON.stringify` writes it and Prettier re-quotes it: double quotes unless the text holds
/// more double quotes than single ones.
pub fn string_literal(s: &str) -> String {
    let doubles = s.matches('"').count();
    let singles = s.matches('\'').count();
    let quote = if doubles > singles { '\'' } else { '"' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::super::doc::print;
    use super::*;

    fn show(t: &Ty) -> String {
        print(&to_doc(t))
    }

    #[test]
    fn keys_are_quoted_only_when_needed() {
        assert_eq!(property_key("user_id"), "user_id");
        assert_eq!(property_key("user-id"), "\"user-id\"");
        assert_eq!(property_key(""), "\"\"");
        assert_eq!(property_key("1abc"), "\"1abc\"");
        assert_eq!(string_literal("say \"hi\""), "'say \"hi\"'");
    }

    #[test]
    fn a_nullable_object_hugs_null() {
        let t = object(vec![member("a", false, Ty::raw("string"))]).nullable(true);
        assert_eq!(show(&t), "{\n  a: string\n} | null");
    }

    #[test]
    fn a_long_union_breaks_with_leading_bars() {
        let labels = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
        let e = Ty::Union(labels.iter().map(|l| Ty::Str(l.to_string())).collect());
        let o = object(vec![member("status", false, e)]);
        let want = "{\n  status:\n    | \"alpha\"\n    | \"bravo\"";
        assert!(show(&o).starts_with(want), "{}", show(&o));
    }

    #[test]
    fn arrays_of_unions_keep_parentheses() {
        let t = Ty::Union(vec![Ty::Str("a".into()), Ty::Str("b".into())]).array();
        assert_eq!(show(&t), "(\"a\" | \"b\")[]");
    }
}
