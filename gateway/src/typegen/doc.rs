//! A small document printer with Prettier's layout algorithm (groups that stay on one line when they fit in 80
//! columns, otherwise break; a group holding a forced break breaks all groups around it), so generated TypeScript
//! comes out exactly as `prettier --parser typescript --no-semi` formats it.

use std::rc::Rc;

pub const WIDTH: usize = 80;

#[derive(Debug, Clone)]
pub enum Doc {
    Text(Rc<str>),
    /// A space when flat, a new line when broken.
    Line,
    /// Nothing when flat, a new line when broken.
    SoftLine,
    Concat(Vec<Doc>),
    /// Contents one level (2 spaces) further in when they break.
    Indent(Box<Doc>),
    Group(Box<Group>),
    /// (when the enclosing group breaks, when it is flat)
    IfBreak(Box<Doc>, Box<Doc>),
}

#[derive(Debug, Clone)]
pub struct Group {
    pub contents: Doc,
    /// Broken from the start: asked for, or holding a forced break (Prettier's break propagation: a broken group breaks every group around it).
    pub broken: bool,
}

pub fn text(s: impl Into<Rc<str>>) -> Doc {
    Doc::Text(s.into())
}

pub fn concat(parts: Vec<Doc>) -> Doc {
    Doc::Concat(parts)
}

pub fn indent(d: Doc) -> Doc {
    Doc::Indent(Box::new(d))
}

pub fn if_break(broken: Doc, flat: Doc) -> Doc {
    Doc::IfBreak(Box::new(broken), Box::new(flat))
}

/// A group; `force` breaks it whatever its width (Prettier's `shouldBreak`).
pub fn group(contents: Doc, force: bool) -> Doc {
    let broken = force || must_break(&contents);
    Doc::Group(Box::new(Group { contents, broken }))
}

/// Whether a document holds a forced break outside any group that already records it.
fn must_break(d: &Doc) -> bool {
    match d {
        Doc::Concat(parts) => parts.iter().any(must_break),
        Doc::Indent(inner) => must_break(inner),
        Doc::Group(g) => g.broken,
        Doc::IfBreak(b, f) => must_break(b) || must_break(f),
        Doc::Text(_) | Doc::Line | Doc::SoftLine => false,
    }
}

/// Joins documents with a separator.
pub fn join(sep: Doc, items: Vec<Doc>) -> Doc {
    let mut parts = Vec::with_capacity(items.len() * 2);
    for (i, d) in items.into_iter().enumerate() {
        if i > 0 {
            parts.push(sep.clone());
        }
        parts.push(d);
    }
    Doc::Concat(parts)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flat,
    Break,
}

type Command<'a> = (usize, Mode, &'a Doc);

/// Lays a document out at [`WIDTH`] columns.
pub fn print(doc: &Doc) -> String {
    let mut out = String::new();
    let mut column = 0usize;
    let mut stack: Vec<Command> = vec![(0, Mode::Break, doc)];
    while let Some((ind, mode, d)) = stack.pop() {
        match d {
            Doc::Text(s) => {
                out.push_str(s);
                column += s.chars().count();
            }
            Doc::Concat(parts) => stack.extend(parts.iter().rev().map(|p| (ind, mode, p))),
            Doc::Indent(inner) => stack.push((ind + 2, mode, inner)),
            Doc::Group(g) => {
                let flat = (ind, Mode::Flat, &g.contents);
                let fits_flat =
                    mode == Mode::Flat || (!g.broken && fits(flat, &stack, WIDTH as isize - column as isize));
                stack.push(if fits_flat && !g.broken { flat } else { (ind, Mode::Break, &g.contents) });
            }
            Doc::IfBreak(b, f) => stack.push((ind, mode, if mode == Mode::Break { b } else { f })),
            Doc::Line | Doc::SoftLine if mode == Mode::Flat => {
                if matches!(d, Doc::Line) {
                    out.push(' ');
                    column += 1;
                }
            }
            Doc::Line | Doc::SoftLine => {
                let trimmed = out.trim_end_matches([' ', '\t']).len();
                out.truncate(trimmed);
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', ind));
                column = ind;
            }
        }
    }
    out
}

/// Whether `next` printed flat, followed by what remains up to the next possible line break, fits in `width`.
fn fits(next: Command, rest: &[Command], mut width: isize) -> bool {
    let mut rest_index = rest.len();
    let mut cmds: Vec<(Mode, &Doc)> = vec![(next.1, next.2)];
    while width >= 0 {
        let Some((mode, d)) = cmds.pop() else {
            if rest_index == 0 {
                return true;
            }
            rest_index -= 1;
            cmds.push((rest[rest_index].1, rest[rest_index].2));
            continue;
        };
        match d {
            Doc::Text(s) => width -= s.chars().count() as isize,
            Doc::Concat(parts) => cmds.extend(parts.iter().rev().map(|p| (mode, p))),
            Doc::Indent(inner) => cmds.push((mode, inner)),
            Doc::Group(g) => cmds.push((if g.broken { Mode::Break } else { mode }, &g.contents)),
            Doc::IfBreak(b, f) => cmds.push((mode, if mode == Mode::Break { b } else { f })),
            Doc::Line | Doc::SoftLine if mode == Mode::Break => return true,
            Doc::Line => width -= 1,
            Doc::SoftLine => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(members: Vec<Doc>, force: bool) -> Doc {
        group(
            concat(vec![
                text("{"),
                indent(concat(vec![Doc::Line, join(concat(vec![if_break(text(""), text(";")), Doc::Line]), members)])),
                Doc::Line,
                text("}"),
            ]),
            force,
        )
    }

    #[test]
    fn a_group_that_fits_stays_flat() {
        let d = object(vec![text("a: string"), text("b: number")], false);
        assert_eq!(print(&d), "{ a: string; b: number }");
    }

    #[test]
    fn a_forced_group_breaks_and_breaks_its_parents() {
        let inner = object(vec![text("x: 1")], true);
        let outer = object(vec![concat(vec![text("a: "), inner])], false);
        assert_eq!(print(&outer), "{\n  a: {\n    x: 1\n  }\n}");
    }

    #[test]
    fn a_group_too_wide_breaks() {
        let long = "x".repeat(70);
        let d = object(vec![text(format!("a: {long}")), text("b: c")], false);
        assert_eq!(print(&d), format!("{{\n  a: {long}\n  b: c\n}}"));
    }

    #[test]
    fn text_after_a_group_counts_towards_its_width() {
        // `{ error: true } & "…"` breaks the object when the string after it does not fit
        let d = concat(vec![object(vec![text("error: true")], false), text(format!(" & \"{}\"", "m".repeat(70)))]);
        assert!(print(&d).starts_with("{\n  error: true\n} & \""));
    }
}
