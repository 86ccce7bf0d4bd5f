//! Functions of the scope's schemas (not procedures, aggregates or window functions): arguments with their modes,
//! types and defaults, what they return, volatility, comments and who may execute them.

use super::Scope;
use tokio_postgres::GenericClient;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgMode {
    In,
    Out,
    InOut,
    Variadic,
    Table,
}

#[derive(Debug, Clone)]
pub struct Arg {
    pub mode: ArgMode,
    /// Empty when unnamed.
    pub name: String,
    pub type_oid: i64,
    /// `format_type` of the type, without modifier.
    pub type_format: String,
}

impl Arg {
    /// Passed by a call: IN, INOUT and VARIADIC arguments.
    pub fn is_input(&self) -> bool {
        matches!(self.mode, ArgMode::In | ArgMode::InOut | ArgMode::Variadic)
    }
}

/// `provolatile`; PostgreSQL's default is volatile.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Volatility {
    Immutable,
    Stable,
    #[default]
    Volatile,
}

/// What a function returns.
#[derive(Debug, Clone)]
pub struct FunctionReturn {
    pub type_oid: i64,
    /// `format_type` (`integer`, `void`, `trigger`, `public.users`).
    pub format: String,
    /// A composite type or `record`.
    pub composite: bool,
    pub is_record: bool,
    /// The type's relation (a table's, a view's, or a standalone composite type's).
    pub type_relation: Option<i64>,
    /// `(schema, name)` when that relation is a table, view, materialized view or foreign table.
    pub table: Option<(String, String)>,
    pub set: bool,
}

#[derive(Debug, Clone)]
pub struct Function {
    pub oid: i64,
    pub schema: String,
    pub name: String,
    /// `COMMENT ON FUNCTION`.
    pub description: Option<String>,
    /// Every argument, OUT and TABLE ones included, in order.
    pub args: Vec<Arg>,
    /// `pronargs`: how many input arguments.
    pub inputs: i32,
    /// `pronargdefaults`: how many of the last input arguments have defaults.
    pub defaults: i32,
    /// `pg_get_function_arguments`.
    pub argument_list: String,
    /// `pg_get_function_result`.
    pub result: String,
    pub returns: FunctionReturn,
    /// `prorows`: estimated rows of a set-returning function.
    pub rows: f32,
    pub volatility: Volatility,
    /// `(schema, name)` of the relation whose row type is the only argument.
    pub row_param: Option<(String, String)>,
    /// The reading role may execute it.
    pub executable: bool,
    /// The scope's API roles that may execute it.
    pub visible_to: Vec<String>,
}

impl Function {
    /// The arguments a call passes, with whether each has a default (the last `defaults` of them do).
    pub fn inputs(&self) -> Vec<(&Arg, bool)> {
        let inputs: Vec<&Arg> = self.args.iter().filter(|a| a.is_input()).collect();
        let first_default = inputs.len().saturating_sub(self.defaults.max(0) as usize);
        inputs.into_iter().enumerate().map(|(i, a)| (a, i >= first_default)).collect()
    }

    /// Returns `trigger` or `event_trigger`: not callable as a function.
    pub fn is_trigger(&self) -> bool {
        matches!(self.returns.format.as_str(), "trigger" | "event_trigger")
    }
}

const FUNCTIONS: &str = "
select p.oid::int8, n.nspname::text, p.proname::text, obj_description(p.oid, 'pg_proc'),
  coalesce(p.proargmodes::text[], array_fill('i'::text, array[cardinality(coalesce(p.proallargtypes, p.proargtypes))])),
  coalesce(p.proargnames, array_fill(''::text, array[cardinality(coalesce(p.proallargtypes, p.proargtypes))])),
  coalesce(p.proallargtypes, p.proargtypes::oid[])::int8[],
  array(select format_type(u.t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]))
        with ordinality u(t, i) order by u.i),
  p.pronargs::int4, p.pronargdefaults::int4, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
  p.prorettype::int8, format_type(p.prorettype, null), rt.typtype = 'c', p.prorettype = 'record'::regtype,
  nullif(rt.typrelid, 0)::int8, rn.nspname::text, rc.relname::text, p.proretset, p.prorows::float4,
  p.provolatile::text,
  (select array[an.nspname::text, ac.relname::text] from pg_type at
     join pg_class ac on ac.oid = at.typrelid and ac.relkind in ('r', 'v', 'm', 'f', 'p')
     join pg_namespace an on an.oid = ac.relnamespace
   where p.pronargs = 1 and at.oid = p.proargtypes[0]),
  has_function_privilege(p.oid, 'execute'),
  array(select r.rolname::text from pg_roles r where r.rolname = any($2) and has_function_privilege(r.oid, p.oid, 'execute'))
from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  left join pg_type rt on rt.oid = p.prorettype
  left join pg_class rc on rc.oid = rt.typrelid and rc.relkind in ('r', 'v', 'm', 'f', 'p')
  left join pg_namespace rn on rn.oid = rc.relnamespace
where n.nspname = any($1) and p.prokind = 'f'
order by p.oid";

/// The scope's functions in `oid` order.
pub async fn load<C: GenericClient>(client: &C, scope: Scope<'_>) -> anyhow::Result<Vec<Function>> {
    Ok(client.query(FUNCTIONS, &[&scope.schemas, &scope.roles]).await?.iter().map(function).collect())
}

fn function(r: &tokio_postgres::Row) -> Function {
    let row_param: Option<Vec<String>> = r.get(22);
    let table: (Option<String>, Option<String>) = (r.get(17), r.get(18));
    Function {
        oid: r.get(0),
        schema: r.get(1),
        name: r.get(2),
        description: r.get(3),
        args: args(r.get(4), r.get(5), r.get(6), r.get(7)),
        inputs: r.get(8),
        defaults: r.get(9),
        argument_list: r.get(10),
        result: r.get(11),
        returns: FunctionReturn {
            type_oid: r.get(12),
            format: r.get(13),
            composite: r.get::<_, Option<bool>>(14).unwrap_or(false) || r.get::<_, bool>(15),
            is_record: r.get(15),
            type_relation: r.get(16),
            table: table.0.zip(table.1),
            set: r.get(19),
        },
        rows: r.get(20),
        volatility: match r.get::<_, &str>(21) {
            "i" => Volatility::Immutable,
            "s" => Volatility::Stable,
            _ => Volatility::Volatile,
        },
        row_param: row_param.filter(|v| v.len() == 2).map(|v| (v[0].clone(), v[1].clone())),
        executable: r.get(23),
        visible_to: r.get(24),
    }
}

fn args(modes: Vec<String>, names: Vec<String>, oids: Vec<i64>, formats: Vec<String>) -> Vec<Arg> {
    oids.into_iter()
        .zip(formats)
        .enumerate()
        .map(|(i, (type_oid, type_format))| Arg {
            mode: match modes.get(i).map(String::as_str) {
                Some("o") => ArgMode::Out,
                Some("b") => ArgMode::InOut,
                Some("v") => ArgMode::Variadic,
                Some("t") => ArgMode::Table,
                _ => ArgMode::In,
            },
            name: names.get(i).cloned().unwrap_or_default(),
            type_oid,
            type_format,
        })
        .collect()
}
