//! Grammar tests for the query-string parser, plus a bounded property test (never panics; rendered
//! filters parse back to themselves).

use super::*;
use proptest::prelude::*;

fn field(name: &str) -> Field {
    Field::plain(name)
}

#[test]
fn select_items() {
    let items = parse_select("id,alias:name::text,data->a->>b,\"my col\",count(),total:amount.sum()::int").unwrap();
    assert_eq!(items.len(), 6);
    assert_eq!(
        items[1],
        SelectItem::Field {
            field: field("name"),
            alias: Some("alias".into()),
            cast: Some("text".into()),
            aggregate: None,
            aggregate_cast: None
        }
    );
    match &items[2] {
        SelectItem::Field { field, .. } => {
            assert_eq!(field.output_name(), "b");
            assert_eq!(
                field.json_path,
                vec![JsonOp::Arrow(JsonKey::Key("a".into())), JsonOp::DoubleArrow(JsonKey::Key("b".into()))]
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(items[4], SelectItem::CountAll { alias: None, cast: None });
    assert!(
        matches!(&items[5], SelectItem::Field { aggregate: Some(Aggregate::Sum), aggregate_cast: Some(c), .. } if c == "int")
    );
}

#[test]
fn select_embeds() {
    let items =
        parse_select("*,owner:profiles!todos_owner_fkey!inner(name),...users(username),messages(count),x()").unwrap();
    let SelectItem::Embed(e) = &items[1] else { panic!() };
    assert_eq!(
        (e.name.as_str(), e.alias.as_deref(), e.hint.as_deref()),
        ("profiles", Some("owner"), Some("todos_owner_fkey"))
    );
    assert_eq!(e.join, Some(JoinType::Inner));
    let SelectItem::Embed(s) = &items[2] else { panic!() };
    assert!(s.spread);
    let SelectItem::Embed(c) = &items[3] else { panic!() };
    assert_eq!(
        c.select,
        vec![SelectItem::Field {
            field: field("count"),
            alias: None,
            cast: None,
            aggregate: None,
            aggregate_cast: None
        }]
    );
    let SelectItem::Embed(x) = &items[4] else { panic!() };
    assert!(x.select.is_empty());
}

#[test]
fn select_errors_are_pgrst100() {
    for bad in ["id,", "a(b", "id.foo()", "::", "a!b!c!d(x)"] {
        assert!(matches!(parse_select(bad), Err(Error::Parse { .. })), "{bad}");
    }
}

#[test]
fn json_path_indexes() {
    let items = parse_select("arr->0,arr->-1").unwrap();
    let SelectItem::Field { field, .. } = &items[1] else { panic!() };
    assert_eq!(field.json_path, vec![JsonOp::Arrow(JsonKey::Idx(-1))]);
}

#[test]
fn operators() {
    let e = parse_op_expr("not.in.(1,\"a,b\", c )").unwrap();
    assert!(e.negated);
    assert_eq!(e.operation, Operation::In(vec!["1".into(), "a,b".into(), "c".into()]));
    assert_eq!(parse_op_expr("is.NULL").unwrap().operation, Operation::Is(IsValue::Null));
    assert_eq!(parse_op_expr("is.not_null").unwrap().operation, Operation::Is(IsValue::NotNull));
    assert_eq!(
        parse_op_expr("like(any).{*a,*b}").unwrap().operation,
        Operation::Simple { op: SimpleOp::Like, quantifier: Some(Quantifier::Any), value: "{*a,*b}".into() }
    );
    assert_eq!(
        parse_op_expr("wfts(english).cat & dog").unwrap().operation,
        Operation::Fts { op: FtsOp::Wfts, language: Some("english".into()), value: "cat & dog".into() }
    );
    assert_eq!(
        parse_op_expr("eq.a.b.c").unwrap().operation,
        Operation::Simple { op: SimpleOp::Eq, quantifier: None, value: "a.b.c".into() }
    );
    for op in [
        "neq",
        "gt",
        "gte",
        "lt",
        "lte",
        "ilike",
        "match",
        "imatch",
        "isdistinct",
        "cs",
        "cd",
        "ov",
        "sl",
        "sr",
        "nxr",
        "nxl",
        "adj",
    ] {
        assert!(parse_op_expr(&format!("{op}.1")).is_ok(), "{op}");
    }
    for bad in ["eqq.5", "is.maybe", "in.(1,2", "5", "not.5"] {
        assert!(matches!(parse_op_expr(bad), Err(Error::Parse { .. })), "{bad}");
    }
}

#[test]
fn filter_keys_with_embed_paths() {
    assert_eq!(parse_filter_key("a.b.col").unwrap(), (vec!["a".to_string(), "b".to_string()], field("col")));
    let (path, f) = parse_filter_key("data->foo->>baz").unwrap();
    assert!(path.is_empty());
    assert_eq!(f.output_name(), "baz");
}

#[test]
fn logic_trees() {
    let (path, negated, is_or) = logic_key("msgs.not.or").unwrap();
    assert_eq!((path, negated, is_or), (vec!["msgs".to_string()], true, true));
    let t = parse_logic(false, true, "(age.lt.18,and(age.gt.65,status.eq.retired),name.in.(a,b),not.or(x.is.null))")
        .unwrap();
    let LogicTree::Expr { children, .. } = t else { panic!() };
    assert_eq!(children.len(), 4);
    assert!(matches!(&children[1], LogicTree::Expr { or: false, children, .. } if children.len() == 2));
    assert!(matches!(&children[3], LogicTree::Expr { negated: true, or: true, .. }));
    let t = parse_logic(false, true, "(name.eq.\"a,b)\",tags.cs.{x,y})").unwrap();
    let LogicTree::Expr { children, .. } = t else { panic!() };
    assert_eq!(
        children[0],
        LogicTree::Stmt(Filter {
            field: field("name"),
            expr: OpExpr {
                negated: false,
                operation: Operation::Simple { op: SimpleOp::Eq, quantifier: None, value: "a,b)".into() }
            }
        })
    );
    assert!(parse_logic(false, true, "()").is_err());
    assert!(parse_logic(false, true, "(a.eq.1").is_err());
}

#[test]
fn order_terms() {
    let t = parse_order("c1.desc.nullslast,c2,rel(col).asc,data->>k.nullsfirst").unwrap();
    assert_eq!(t.len(), 4);
    assert_eq!((t[0].direction, t[0].nulls), (Some(Direction::Desc), Some(Nulls::Last)));
    assert_eq!(t[2].relation.as_deref(), Some("rel"));
    assert_eq!(t[3].nulls, Some(Nulls::First));
    assert!(parse_order("c1.up").is_err());
}

fn render_filter_value(op: &OpExpr) -> String {
    let body = match &op.operation {
        Operation::Simple { op, quantifier, value } => format!(
            "{}{}.{value}",
            op.name(),
            match quantifier {
                Some(Quantifier::Any) => "(any)",
                Some(Quantifier::All) => "(all)",
                None => "",
            }
        ),
        Operation::In(items) => format!(
            "in.({})",
            items
                .iter()
                .map(|i| format!("\"{}\"", i.replace('\\', "\\\\").replace('"', "\\\"")))
                .collect::<Vec<_>>()
                .join(",")
        ),
        Operation::Is(_) | Operation::Fts { .. } => unreachable!(),
    };
    format!("{}{body}", if op.negated { "not." } else { "" })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}") {
        let _ = parse_select(&s);
        let _ = parse_op_expr(&s);
        let _ = parse_filter_key(&s);
        let _ = parse_order(&s);
        let _ = parse_logic(false, true, &s);
        let _ = parse_columns("columns", &s);
    }

    #[test]
    fn grammar_shaped_input_never_panics(s in "[a-z*(),.:!\"\\->{}]{0,30}") {
        let _ = parse_select(&s);
        let _ = parse_op_expr(&s);
        let _ = parse_order(&s);
        let _ = parse_logic(false, false, &s);
    }

    #[test]
    fn simple_filters_round_trip(
        negated in any::<bool>(),
        op in prop::sample::select(vec!["eq", "neq", "gt", "like", "ilike", "cs", "adj", "isdistinct"]),
        value in "\\PC{0,20}",
    ) {
        let expr = OpExpr { negated, operation: Operation::Simple { op: SimpleOp::from_name(op).unwrap(), quantifier: None, value } };
        prop_assert_eq!(parse_op_expr(&render_filter_value(&expr)).unwrap(), expr);
    }

    #[test]
    fn in_lists_round_trip(items in prop::collection::vec("\\PC{0,8}", 0..5)) {
        // unquoted whitespace-only items are trimmed by the grammar; quoted rendering keeps them
        let expr = OpExpr { negated: false, operation: Operation::In(items) };
        prop_assert_eq!(parse_op_expr(&render_filter_value(&expr)).unwrap(), expr);
    }
}

/// The cursor walks bytes: characters of two to four bytes come through whole, and error columns count characters
/// as PostgREST's parser does.
#[test]
fn non_ascii_input_keeps_characters_and_character_columns() {
    let items = parse_select("prénom,名前:città").unwrap();
    assert_eq!(
        items[0],
        SelectItem::Field { field: field("prénom"), alias: None, cast: None, aggregate: None, aggregate_cast: None }
    );
    assert!(
        matches!(&items[1], SelectItem::Field { field, alias: Some(a), .. } if field.name == "città" && a == "名前")
    );
    let tree = parse_logic(false, false, "(name.eq.café,tags.in.(ü,\"ö,ß\"),note.like.*😀*)").unwrap();
    let rendered = format!("{tree:?}");
    for part in ["café", "\"ü\"", "\"ö,ß\"", "*😀*"] {
        assert!(rendered.contains(part), "{part} in {rendered}");
    }
    assert_eq!(
        parse_op_expr("eq.élan vital").unwrap().operation,
        Operation::Simple { op: SimpleOp::Eq, quantifier: None, value: "élan vital".into() }
    );
    match parse_select("prénom,né!") {
        Err(Error::Parse { message, .. }) => assert!(message.ends_with("(line 1, column 11)"), "{message}"),
        other => panic!("{other:?}"),
    }
}
