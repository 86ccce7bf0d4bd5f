//! Read SQL: a node becomes `SELECT fields FROM relation <lateral joins> WHERE … ORDER BY … LIMIT/OFFSET`, embeds
//! as `LEFT|INNER JOIN LATERAL` subqueries aggregated with `json_agg` (to-many) or `row_to_json` (to-one), the way
//! PostgREST builds them, so PostgreSQL renders the JSON and reports errors with the same aliases.

pub use super::filter::cond_sql;
use crate::rest::fragment::{limit_clause, push_int, push_quoted_ident, qualified, quote_ident, SqlBuilder};
use crate::rest::plan::types::*;
use crate::rest::request::types::*;
use crate::rest::schema_cache::{Cardinality, SchemaCache};

/// `qual."col"->'a'->>'b'`
pub fn field_sql(b: &mut SqlBuilder, qual: &str, field: &Field) -> String {
    let mut s = String::with_capacity(qual.len() + field.name.len() + 3);
    s.push_str(qual);
    s.push('.');
    push_quoted_ident(&mut s, &field.name);
    for op in &field.json_path {
        let (arrow, key) = match op {
            JsonOp::Arrow(k) => ("->", k),
            JsonOp::DoubleArrow(k) => ("->>", k),
        };
        s.push_str(arrow);
        match key {
            JsonKey::Key(k) => b.push_json_key(&mut s, k),
            JsonKey::Idx(i) => push_int(&mut s, *i),
        }
    }
    s
}

fn cast(expr: String, cast: &Option<String>) -> String {
    match cast {
        Some(t) => format!("CAST({expr} AS {t})"),
        None => expr,
    }
}

/// The select-list entries (and GROUP BY expressions) of a node, plus the lateral joins of its embeds.
struct Parts {
    select: Vec<String>,
    group_by: Vec<String>,
    joins: Vec<String>,
    /// Whether the node has aggregates: every other output is then grouped by.
    aggregated: bool,
}

impl Parts {
    /// An output that is not an aggregate: `expr AS "output"`, grouped by when the node aggregates.
    fn column(&mut self, expr: String, output: &str) {
        let mut entry = String::with_capacity(expr.len() + output.len() + 6);
        entry.push_str(&expr);
        entry.push_str(" AS ");
        push_quoted_ident(&mut entry, output);
        if self.aggregated {
            self.group_by.push(expr);
        }
        self.select.push(entry);
    }
}

fn node_parts(b: &mut SqlBuilder, cache: &SchemaCache, node: &ReadNode) -> Parts {
    let aggregated = node.has_aggregates();
    let mut p = Parts { select: vec![], group_by: vec![], joins: vec![], aggregated };
    for f in &node.fields {
        field_part(&mut p, b, node, f);
    }
    for e in &node.embeds {
        embed_part(&mut p, b, cache, node, e);
    }
    p
}

/// One field of the select list: `*`, `count()`, a column (aggregated or not).
fn field_part(p: &mut Parts, b: &mut SqlBuilder, node: &ReadNode, f: &OutField) {
    match f {
        OutField::Star => p.select.push([node.qual.as_str(), ".*"].concat()),
        OutField::CountAll { output, cast: c } => {
            p.select.push(format!("{} AS {}", cast("pg_catalog.count(*)".into(), c), quote_ident(output)))
        }
        OutField::Field { field, output, cast: c, aggregate, aggregate_cast } => {
            let expr = cast(field_sql(b, &node.qual, field), c);
            match aggregate {
                Some(a) => p.select.push(format!(
                    "{} AS {}",
                    cast(format!("{}({expr})", a.sql_name()), aggregate_cast),
                    quote_ident(output)
                )),
                None => p.column(expr, output),
            }
        }
    }
}

/// An embed: a lateral join, and its output (an object, an array, or spread columns) unless hidden.
fn embed_part(p: &mut Parts, b: &mut SqlBuilder, cache: &SchemaCache, node: &ReadNode, e: &EmbedNode) {
    // Embeds are built as json; jsonb (PostgREST's shape) only where GROUP BY needs equality: the cast costs
    // PostgreSQL more than the rest of a 25-row page with one embed (tests/bench: page_embed).
    let embed_cast = if p.aggregated { "::jsonb" } else { "" };
    let lat = quote_ident(&e.lateral_alias);
    let child = child_query(b, cache, node, e);
    let join_kw = if e.inner { "INNER JOIN LATERAL" } else { "LEFT JOIN LATERAL" };
    if e.rel.is_to_one() {
        p.joins.push([join_kw, " (", &child, ") AS ", &lat, " ON TRUE"].concat());
        match (e.hidden, e.spread) {
            (true, _) => {}
            (false, true) => {
                for n in output_names(cache, &e.node) {
                    p.column(format!("{lat}.{}", quote_ident(&n)), &n);
                }
            }
            (false, false) => p.column(["row_to_json(", &lat, ".*)", embed_cast].concat(), &e.output),
        }
    } else if e.spread && !e.hidden {
        // to-many spread: each column becomes an array of the children's values
        let names = output_names(cache, &e.node);
        let aggs: Vec<String> = names
            .iter()
            .map(|n| format!("COALESCE(json_agg({lat}.{}), '[]'){embed_cast} AS {}", quote_ident(n), quote_ident(n)))
            .collect();
        let on = if e.inner { format!("{lat} IS NOT NULL") } else { "TRUE".into() };
        p.joins.push(format!("{join_kw} (SELECT {} FROM ({child}) AS {lat}) AS {lat} ON {on}", aggs.join(", ")));
        for n in names {
            p.column(format!("{lat}.{}", quote_ident(&n)), &n);
        }
    } else {
        let on = if e.inner { [&lat, ".", &lat, " IS NOT NULL"].concat() } else { "TRUE".into() };
        let l = lat.as_str();
        p.joins.push(
            [
                join_kw,
                " (SELECT json_agg(",
                l,
                ")",
                embed_cast,
                " AS ",
                l,
                " FROM (",
                &child,
                ") AS ",
                l,
                ") AS ",
                l,
                " ON ",
                &on,
            ]
            .concat(),
        );
        if !e.hidden {
            p.column(["COALESCE(", l, ".", l, ", '[]')"].concat(), &e.output);
        }
    }
}

/// The output keys of a node (for to-many spreads), expanding `*` from the schema cache.
fn output_names(cache: &SchemaCache, node: &ReadNode) -> Vec<String> {
    let mut names = vec![];
    for f in &node.fields {
        match f {
            OutField::Star => {
                if let Some(t) = cache.tables.get(&node.relation) {
                    names.extend(t.columns.iter().map(|c| c.name.clone()));
                }
            }
            OutField::Field { output, .. } | OutField::CountAll { output, .. } => names.push(output.clone()),
        }
    }
    for e in node.embeds.iter().filter(|e| !e.hidden && !e.spread) {
        names.push(e.output.clone());
    }
    names
}

/// The embedded relation's subquery, joined to its parent.
fn child_query(b: &mut SqlBuilder, cache: &SchemaCache, parent: &ReadNode, e: &EmbedNode) -> String {
    let target = qualified(&e.rel.target.schema, &e.rel.target.name);
    let q = &e.node.qual;
    let (from, join_conds) = match &e.rel.cardinality {
        Cardinality::M2M(j) => {
            let jt = qualified(&j.table.schema, &j.table.name);
            let on: Vec<String> = j
                .target_columns
                .iter()
                .map(|(t, jc)| format!("{jt}.{} = {q}.{}", quote_ident(jc), quote_ident(t)))
                .collect();
            let conds: Vec<String> = j
                .source_columns
                .iter()
                .map(|(s, jc)| format!("{jt}.{} = {}.{}", quote_ident(jc), parent.qual, quote_ident(s)))
                .collect();
            (format!("{target} AS {q} INNER JOIN {jt} ON {}", on.join(" AND ")), conds)
        }
        Cardinality::Computed { function, .. } => {
            let f = qualified(&function.schema, &function.name);
            (format!("{f}({}) AS {q}", parent.row_ref()), vec![])
        }
        _ => (
            [target.as_str(), " AS ", q].concat(),
            e.rel.columns.iter().map(|(s, t)| column_equality(q, t, &parent.qual, s)).collect(),
        ),
    };
    node_query(b, cache, &e.node, &from, join_conds, false)
}

/// `child."t" = parent."s"`: an embed's join condition.
fn column_equality(child: &str, t: &str, parent: &str, s: &str) -> String {
    let mut sql = String::with_capacity(child.len() + t.len() + parent.len() + s.len() + 9);
    sql.push_str(child);
    sql.push('.');
    push_quoted_ident(&mut sql, t);
    sql.push_str(" = ");
    sql.push_str(parent);
    sql.push('.');
    push_quoted_ident(&mut sql, s);
    sql
}

/// `SELECT … FROM from <joins> WHERE extra AND conds [GROUP BY] [ORDER BY] [LIMIT] [OFFSET]`.
pub fn node_query(
    b: &mut SqlBuilder,
    cache: &SchemaCache,
    node: &ReadNode,
    from: &str,
    mut conds: Vec<String>,
    skip_range: bool,
) -> String {
    let parts = node_parts(b, cache, node);
    for c in &node.conds {
        conds.push(cond_sql(b, &node.qual, c));
    }
    // pushed rather than `format!`: this runs on every read
    let mut sql = String::from("SELECT ");
    push_list(&mut sql, &parts.select, ", ");
    sql.push_str(" FROM ");
    sql.push_str(from);
    for j in &parts.joins {
        sql.push(' ');
        sql.push_str(j);
    }
    if !conds.is_empty() {
        sql.push_str(" WHERE ");
        push_list(&mut sql, &conds, " AND ");
    }
    if !parts.group_by.is_empty() {
        sql.push_str(" GROUP BY ");
        push_list(&mut sql, &parts.group_by, ", ");
    }
    if !node.order.is_empty() {
        let terms: Vec<String> = node.order.iter().map(|o| order_sql(b, node, o)).collect();
        sql.push_str(" ORDER BY ");
        push_list(&mut sql, &terms, ", ");
    }
    if !skip_range {
        if let Some(l) = node.range.limit {
            sql.push_str(&limit_clause(l));
        }
        if node.range.offset > 0 {
            sql.push_str(" OFFSET ");
            sql.push_str(&b.param(node.range.offset.to_string()));
        }
    }
    sql
}

/// Appends `items` separated by `sep` (what `items.join(sep)` gives, without the intermediate string).
fn push_list(sql: &mut String, items: &[String], sep: &str) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            sql.push_str(sep);
        }
        sql.push_str(item);
    }
}

/// The count query of a root node: its relation, the joins its conditions need, its conditions, no range.
pub fn count_query(b: &mut SqlBuilder, cache: &SchemaCache, node: &ReadNode, from: &str) -> String {
    let needs_joins =
        node.embeds.iter().any(|e| e.inner) || node.conds.iter().any(|c| matches!(c, Cond::EmbedNull { .. }));
    let mut sql = format!("SELECT 1 FROM {from}");
    if needs_joins {
        let parts = node_parts(b, cache, node);
        for j in &parts.joins {
            sql.push(' ');
            sql.push_str(j);
        }
    }
    let conds: Vec<String> = node.conds.iter().map(|c| cond_sql(b, &node.qual, c)).collect();
    if !conds.is_empty() {
        sql.push_str(&format!(" WHERE {}", conds.join(" AND ")));
    }
    sql
}

fn order_sql(b: &mut SqlBuilder, node: &ReadNode, o: &Order) -> String {
    let mut s = match &o.lateral_alias {
        Some(lat) => field_sql(b, &quote_ident(lat), &o.field),
        None => field_sql(b, &node.qual, &o.field),
    };
    match o.direction {
        Some(Direction::Asc) => s.push_str(" ASC"),
        Some(Direction::Desc) => s.push_str(" DESC"),
        None => {}
    }
    match o.nulls {
        Some(Nulls::First) => s.push_str(" NULLS FIRST"),
        Some(Nulls::Last) => s.push_str(" NULLS LAST"),
        None => {}
    }
    s
}
