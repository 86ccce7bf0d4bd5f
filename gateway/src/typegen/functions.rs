//! The `Functions` section: which functions PostgREST can call (as `supabase gen types` decides), their `Args`
//! and `Returns`, `SetofOptions` for row-returning ones, overloads as unions, the errors PostgREST would give for
//! ambiguous overloads, and computed fields added to the `Row` of the relation they take.

use super::collate::locale_compare;
use super::model::{Arg, ArgMode, Function};
use super::render::Generator;
use super::ts::{inline_object, member, object, Member, Ty};

/// `json`, `jsonb`, `text`: the types an unnamed argument may have.
const UNNAMED_ARG_TYPES: [i64; 3] = [114, 3802, 25];

pub struct Entry<'a> {
    pub f: &'a Function,
    /// Every argument, sorted by name.
    pub args: Vec<&'a Arg>,
    /// The input arguments (IN, INOUT, VARIADIC), sorted by name.
    pub in_args: Vec<&'a Arg>,
}

pub struct Functions<'a> {
    schema: String,
    entries: Vec<Entry<'a>>,
}

/// The callable functions of `schema`, sorted by name.
pub fn function_entries<'a>(gen: &Generator<'a>, schema: &str) -> Functions<'a> {
    let mut entries: Vec<Entry> = gen
        .catalog
        .functions
        .iter()
        .filter(|f| f.schema == schema)
        .map(|f| {
            let mut args: Vec<&Arg> = f.args.iter().collect();
            args.sort_by(|a, b| locale_compare(&a.name, &b.name));
            let in_args = args.iter().copied().filter(|a| a.is_input()).collect();
            Entry { f, args, in_args }
        })
        .filter(|e| callable(gen, &e.in_args))
        .collect();
    entries.sort_by(|a, b| locale_compare(&a.f.name, &b.f.name));
    Functions { schema: schema.to_string(), entries }
}

fn callable(gen: &Generator, in_args: &[&Arg]) -> bool {
    let all_fine =
        in_args.iter().all(|a| !a.name.is_empty() || (a.has_default && UNNAMED_ARG_TYPES.contains(&a.type_id)));
    let single_unnamed = in_args.len() == 1
        && in_args[0].name.is_empty()
        && (UNNAMED_ARG_TYPES.contains(&in_args[0].type_id) || gen.relation_types.contains_key(&in_args[0].type_id));
    all_fine || single_unnamed
}

impl<'a> Functions<'a> {
    /// One member per function name; overloads (sorted by their argument text) become a union.
    pub fn members(&self, gen: &Generator<'a>) -> Vec<Member> {
        let mut groups: Vec<(&str, Vec<&Entry>)> = Vec::new();
        for e in &self.entries {
            match groups.iter_mut().find(|(name, _)| *name == e.f.name) {
                Some((_, list)) => list.push(e),
                None => groups.push((&e.f.name, vec![e])),
            }
        }
        groups
            .into_iter()
            .map(|(name, mut list)| {
                list.sort_by(|a, b| {
                    locale_compare(&a.f.argument_types, &b.f.argument_types)
                        .then_with(|| locale_compare(&a.f.return_type, &b.f.return_type))
                });
                let sigs: Vec<Ty> = list.iter().map(|e| self.signature(gen, &list, e)).collect();
                member(
                    name,
                    false,
                    if sigs.len() == 1 { sigs.into_iter().next().unwrap_or(Ty::raw("never")) } else { Ty::Union(sigs) },
                )
            })
            .collect()
    }

    /// Functions taking a row of `relation` (their argument text is its name), as fields of its `Row`.
    pub fn computed_fields(&self, gen: &Generator<'a>, relation: &str) -> Vec<Member> {
        self.entries
            .iter()
            .filter(|e| e.f.argument_types == relation)
            .map(|e| member(&e.f.name, false, self.return_type(gen, e).nullable(true)))
            .collect()
    }

    fn args_type(&self, gen: &Generator<'a>, e: &Entry) -> Ty {
        if e.in_args.is_empty() {
            return Ty::raw("never");
        }
        inline_object(
            e.in_args.iter().map(|a| member(&a.name, a.has_default, gen.ts_type_of(&self.schema, a.type_id))).collect(),
        )
    }

    fn signature(&self, gen: &Generator<'a>, group: &[&Entry], e: &Entry) -> Ty {
        let error = self.conflict_error(gen, group, e).or_else(|| {
            self.row_argument_error(gen, e).then(|| {
                format!(
                    "the function {}.{} with parameter or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache",
                    self.schema, e.f.name
                )
            })
        });
        let returns = match error {
            Some(message) => {
                Ty::Intersection(vec![inline_object(vec![member("error", false, Ty::raw("true"))]), Ty::Str(message)])
            }
            None => self.return_type(gen, e),
        };
        let multiple = e.f.rows.is_some_and(|r| r > 1.0);
        let returns = if e.f.returns_set && multiple { returns.array() } else { returns };
        let mut members = vec![member("Args", false, self.args_type(gen, e)), member("Returns", false, returns)];
        members.extend(self.setof_options(gen, e).map(|s| member("SetofOptions", false, s)));
        inline_object(members)
    }

    /// The name of the relation (or composite type) a function returns rows of.
    fn returned_relation(&self, gen: &Generator<'a>, f: &Function) -> Option<String> {
        let id = f.return_relation_id?;
        match gen.relation_names.get(&id) {
            Some(name) => Some(name.to_string()),
            None => gen.relation_types.get(&f.return_type_id).map(|t| t.name.clone()),
        }
    }

    fn setof_options(&self, gen: &Generator<'a>, e: &Entry) -> Option<Ty> {
        let to = self.returned_relation(gen, e.f)?;
        let multiple = e.f.rows.is_some_and(|r| r > 1.0);
        let set_of_table = e.f.returns_set && e.f.return_relation_id.is_some();
        let mut options = ("*".to_string(), !multiple, e.f.returns_set);
        if let [only] = e.args.as_slice() {
            if let Some(source) = gen.relation_types.get(&only.type_id) {
                options = if set_of_table {
                    (source.format.clone(), !multiple, true)
                } else {
                    (source.format.clone(), true, false)
                };
            }
        }
        let flag = |b: bool| Ty::raw(if b { "true" } else { "false" });
        Some(object(vec![
            member("from", false, Ty::Str(options.0)),
            member("to", false, Ty::Str(to)),
            member("isOneToOne", false, flag(options.1)),
            member("isSetofReturn", false, flag(options.2)),
        ]))
    }

    /// `RETURNS TABLE (…)`, a row of a relation of this schema, or the return type by name.
    fn return_type(&self, gen: &Generator<'a>, e: &Entry) -> Ty {
        let table_args: Vec<&&Arg> = e.args.iter().filter(|a| a.mode == ArgMode::Table).collect();
        if !table_args.is_empty() {
            return object(
                table_args.iter().map(|a| member(&a.name, false, gen.ts_type_of(&self.schema, a.type_id))).collect(),
            );
        }
        let relation =
            gen.catalog.relations.iter().find(|r| r.schema == self.schema && Some(r.id) == e.f.return_relation_id);
        if let Some(rel) = relation {
            let columns = gen.columns_of(rel.id);
            return object(
                columns
                    .iter()
                    .map(|c| member(&c.name, false, gen.ts_type(&self.schema, &c.type_name).nullable(c.nullable)))
                    .collect(),
            );
        }
        gen.ts_type_of(&self.schema, e.f.return_type_id)
    }

    /// A single unnamed row argument of a function that returns no relation: PostgREST cannot call it.
    fn row_argument_error(&self, gen: &Generator<'a>, e: &Entry) -> bool {
        matches!(e.in_args.as_slice(), [a] if a.name.is_empty() && gen.relation_types.contains_key(&a.type_id))
            && self.returned_relation(gen, e.f).is_none()
    }

    /// PostgREST's "Could not choose the best candidate function" for overloads it cannot tell apart.
    fn conflict_error(&self, gen: &Generator<'a>, group: &[&Entry], e: &Entry) -> Option<String> {
        if group.len() <= 1 {
            return None;
        }
        let (schema, name) = (&self.schema, &e.f.name);
        let tail = "Try renaming the parameters or the function itself in the database so function overloading can be resolved";
        let type_name = |id: i64| gen.types_by_id.get(&id).map(|t| t.name.clone()).unwrap_or_else(|| "unknown".into());
        let others = || group.iter().filter(move |o| !std::ptr::eq(o.f, e.f));
        if e.in_args.is_empty() {
            let other = others().find(|o| matches!(o.in_args.as_slice(), [a] if a.name.is_empty() && a.has_default))?;
            let rt = type_name(other.f.return_type_id);
            return Some(format!("Could not choose the best candidate function between: {schema}.{name}(), {schema}.{name}( => {rt}). {tail}"));
        }
        let [arg] = e.in_args.as_slice() else { return None };
        if arg.name.is_empty() {
            return None;
        }
        let clashing: Vec<&&Entry> = others()
            .filter(|o| matches!(o.in_args.as_slice(), [b] if b.name == arg.name && b.type_id != arg.type_id))
            .collect();
        if clashing.is_empty() {
            return None;
        }
        let mut all: Vec<&Entry> = vec![e];
        all.extend(clashing.into_iter().copied());
        all.sort_by_key(|x| x.in_args.first().map(|a| a.type_id).unwrap_or(0));
        let list: Vec<String> = all
            .iter()
            .map(|x| {
                let args: Vec<String> =
                    x.in_args.iter().map(|a| format!("{} => {}", a.name, type_name(a.type_id))).collect();
                format!("{schema}.{name}({})", args.join(", "))
            })
            .collect();
        Some(format!("Could not choose the best candidate function between: {}. {tail}", list.join(", ")))
    }
}
