//! Read planning: the select tree becomes a tree of nodes with resolved relationships; filters, logic trees,
//! order and ranges are attached to the node their embed path names (PGRST108 when it names none).

use super::embed::resolve_relationship;
use super::types::*;
use crate::rest::error::Error;
use crate::rest::fragment::{push_int, quote_ident};
use crate::rest::request::types::*;
use crate::rest::request::QueryParams;
use crate::rest::schema_cache::{QualifiedName, SchemaCache};

/// Limits the planner applies.
#[derive(Debug, Clone, Copy)]
pub struct ReadLimits {
    pub max_rows: Option<i64>,
    pub aggregates_enabled: bool,
}

/// Builds the node tree for `select` over `relation`, whose columns are qualified by `qual`.
pub fn build_tree(
    cache: &SchemaCache,
    relation: &QualifiedName,
    qual: String,
    select: &[SelectItem],
    depth: usize,
    limits: ReadLimits,
) -> Result<ReadNode, Error> {
    let mut node = ReadNode {
        relation: relation.clone(),
        qual,
        fields: vec![],
        embeds: vec![],
        conds: vec![],
        order: vec![],
        range: Range::default(),
    };
    for item in select {
        match item {
            SelectItem::Embed(embed) => node.embeds.push(embed_node(cache, relation, embed, depth, limits)?),
            item => node.fields.push(out_field(item, limits)?),
        }
    }
    if node.fields.is_empty() && node.embeds.iter().all(|e| e.hidden) && depth == 0 && select.is_empty() {
        node.fields.push(OutField::Star);
    }
    Ok(node)
}

/// A select item that is not an embed: `*`, `count()`, a field (aggregates only when enabled).
fn out_field(item: &SelectItem, limits: ReadLimits) -> Result<OutField, Error> {
    Ok(match item {
        SelectItem::CountAll { alias, cast } => {
            if !limits.aggregates_enabled {
                return Err(Error::AggregatesDisabled);
            }
            OutField::CountAll { output: alias.clone().unwrap_or_else(|| "count".into()), cast: cast.clone() }
        }
        SelectItem::Field { field, alias, cast, aggregate, aggregate_cast } => {
            if aggregate.is_some() && !limits.aggregates_enabled {
                return Err(Error::AggregatesDisabled);
            }
            let output = alias.clone().unwrap_or_else(|| match aggregate {
                Some(a) => a.sql_name().to_string(),
                None => field.output_name(),
            });
            let (aggregate, aggregate_cast) = (*aggregate, aggregate_cast.clone());
            OutField::Field { field: field.clone(), output, cast: cast.clone(), aggregate, aggregate_cast }
        }
        // embeds are built by `embed_node`
        SelectItem::Star | SelectItem::Embed(_) => OutField::Star,
    })
}

/// An embed: its relationship resolved and its own node built one level down.
fn embed_node(
    cache: &SchemaCache,
    relation: &QualifiedName,
    embed: &Embed,
    depth: usize,
    limits: ReadLimits,
) -> Result<EmbedNode, Error> {
    let rel = resolve_relationship(cache, relation, &embed.name, embed.hint.as_deref())?;
    let child_depth = depth + 1;
    // joined rather than `format!`: every embed of every request names two aliases
    let mut depth_suffix = String::from("_");
    push_int(&mut depth_suffix, child_depth as i64);
    let inner_alias = [rel.target.name.as_str(), &depth_suffix].concat();
    let lateral_alias = [relation.name.as_str(), "_", embed.output_name(), &depth_suffix].concat();
    let target = rel.target.clone();
    let child = build_tree(cache, &target, quote_ident(&inner_alias), &embed.select, child_depth, limits)?;
    Ok(EmbedNode {
        output: embed.output_name().to_string(),
        rel,
        inner: embed.join == Some(JoinType::Inner),
        spread: embed.spread,
        hidden: embed.select.is_empty(),
        lateral_alias,
        node: child,
    })
}

/// Finds the node an embed path leads to (names match the embed's output name or relation name).
fn find_node<'a>(node: &'a mut ReadNode, path: &[String]) -> Result<&'a mut ReadNode, Error> {
    let Some((first, rest)) = path.split_first() else { return Ok(node) };
    let idx = node
        .embeds
        .iter()
        .position(|e| &e.output == first)
        .or_else(|| node.embeds.iter().position(|e| &e.rel.target.name == first))
        .ok_or_else(|| Error::NotEmbedded(path.join(".")))?;
    find_node(&mut node.embeds[idx].node, rest)
}

/// Attaches filters, logic trees, order terms and ranges from the query string.
pub fn attach_query(
    cache: &SchemaCache,
    root: &mut ReadNode,
    q: &QueryParams,
    limits: ReadLimits,
) -> Result<(), Error> {
    for (path, filter) in &q.filters {
        let node = find_node(root, path)?;
        let cond = filter_cond(cache, node, filter)?;
        node.conds.push(cond);
    }
    for (path, tree) in &q.logic {
        let node = find_node(root, path)?;
        let cond = logic_cond(cache, node, tree)?;
        node.conds.push(cond);
    }
    for (path, terms) in &q.order {
        let node = find_node(root, path)?;
        for t in terms {
            let lateral_alias = t.relation.as_ref().map(|r| related_order(node, r)).transpose()?;
            node.order.push(Order { lateral_alias, field: t.field.clone(), direction: t.direction, nulls: t.nulls });
        }
    }
    for (path, range) in &q.ranges {
        if range.offset < 0 {
            return Err(Error::Range("Offset should be greater than or equal to zero.".into()));
        }
        if range.limit.is_some_and(|l| l < 0) {
            return Err(Error::Range("Limit should be greater than or equal to zero.".into()));
        }
        find_node(root, path)?.range = *range;
    }
    if let Some(max) = limits.max_rows {
        cap_rows(root, max);
    }
    Ok(())
}

/// The lateral alias an order term on embed `r` sorts by (PGRST118 unless the embed is to-one).
fn related_order(node: &ReadNode, r: &String) -> Result<String, Error> {
    let e = node
        .embeds
        .iter()
        .find(|e| &e.output == r || &e.rel.target.name == r)
        .ok_or_else(|| Error::NotEmbedded(r.clone()))?;
    if !e.rel.is_to_one() {
        return Err(Error::RelatedOrder(node.relation.name.clone(), r.clone()));
    }
    Ok(e.lateral_alias.clone())
}

fn cap_rows(node: &mut ReadNode, max: i64) {
    node.range.limit = Some(node.range.limit.map_or(max, |l| l.min(max)));
    for e in node.embeds.iter_mut().filter(|e| !e.rel.is_to_one()) {
        cap_rows(&mut e.node, max);
    }
}

fn column_type(cache: &SchemaCache, node: &ReadNode, field: &Field) -> Option<String> {
    if !field.json_path.is_empty() {
        return None;
    }
    cache.tables.get(&node.relation)?.column(&field.name).map(|c| c.data_type.clone())
}

/// A filter of this node; a filter named after an embed (not a column) is an `is null` join condition.
pub fn filter_cond(cache: &SchemaCache, node: &ReadNode, filter: &Filter) -> Result<Cond, Error> {
    let is_column = cache.tables.get(&node.relation).is_none_or(|t| t.column(&filter.field.name).is_some());
    if filter.field.json_path.is_empty() && !is_column {
        if let Some(e) = node.embeds.iter().find(|e| e.output == filter.field.name) {
            return match filter.expr.operation {
                Operation::Is(v @ (IsValue::Null | IsValue::NotNull)) => Ok(Cond::EmbedNull {
                    lateral_alias: e.lateral_alias.clone(),
                    to_one: e.rel.is_to_one(),
                    is_null: (v == IsValue::Null) != filter.expr.negated,
                }),
                _ => Err(Error::EmbedOperator(e.output.clone())),
            };
        }
    }
    Ok(Cond::Filter { filter: filter.clone(), column_type: column_type(cache, node, &filter.field) })
}

fn logic_cond(cache: &SchemaCache, node: &ReadNode, tree: &LogicTree) -> Result<Cond, Error> {
    Ok(match tree {
        LogicTree::Stmt(f) => filter_cond(cache, node, f)?,
        LogicTree::Expr { negated, or, children } => Cond::Logic {
            negated: *negated,
            or: *or,
            children: children.iter().map(|c| logic_cond(cache, node, c)).collect::<Result<_, _>>()?,
        },
    })
}
