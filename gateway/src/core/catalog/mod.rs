//! The one reader of PostgreSQL's catalog for the whole binary: relations and their columns, primary, unique and
//! foreign keys, which table column each view column shows (read from the view's query tree, as PostgREST does),
//! functions and types, as plain data. REST's schema cache and OpenAPI document, the type generator and the
//! change stream all read it; only the loaders here query the catalog.

mod foreign_keys;
mod functions;
mod keys;
pub mod lookup;
mod node_tree;
mod relations;
mod types;
mod view_keys;
mod views;

pub use foreign_keys::{End, ForeignKey};
pub use functions::{Arg, ArgMode, Function, FunctionReturn, Volatility};
pub use keys::{Key, KeyKind, Referenced};
pub use relations::{Column, Identity, Relation, RelationKind, Writes};
pub use types::TypeInfo;
pub use view_keys::{KeyInView, ViewColumns};
pub use views::View;

use tokio_postgres::GenericClient;

/// The names of the schemas PostgreSQL keeps for itself (never a user schema).
pub const SYSTEM_SCHEMAS: [&str; 3] = ["information_schema", "pg_catalog", "pg_toast"];

/// What to read: the schemas whose relations and functions are wanted, and the API roles whose privileges each
/// relation and function records (`visible_to`).
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub schemas: &'a [String],
    pub roles: &'a [String],
}

/// What the catalog says, for one [`Scope`]: the scope's relations (with their columns) and functions; the keys
/// and views of every user schema (a view in an exposed schema may show a table of another; a key's other side
/// may live elsewhere).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub relations: Vec<Relation>,
    pub keys: Vec<Key>,
    pub views: Vec<View>,
    pub functions: Vec<Function>,
}

/// Reads relations, columns, keys, views and functions for `scope`.
pub async fn load<C: GenericClient>(client: &C, scope: Scope<'_>) -> anyhow::Result<Catalog> {
    Ok(Catalog {
        relations: relations::load(client, scope).await?,
        keys: keys::load(client).await?,
        views: views::load(client).await?,
        functions: functions::load(client, scope).await?,
    })
}

/// Every type of the database (the type generator names them across schemas).
pub async fn load_types<C: GenericClient>(client: &C) -> anyhow::Result<Vec<TypeInfo>> {
    types::load(client).await
}

impl Catalog {
    pub fn relation(&self, oid: i64) -> Option<&Relation> {
        self.relations.iter().find(|r| r.oid == oid)
    }

    /// For each view, which table columns it shows under which names (following views of views).
    pub fn view_columns(&self) -> ViewColumns<'_> {
        ViewColumns::new(&self.views)
    }
}
