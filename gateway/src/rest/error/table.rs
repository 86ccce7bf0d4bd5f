//! PostgREST's table: each error's status, code, message, details and hint, in PostgREST's groups — connection
//! (`PGRST0xx`) and request (`PGRST1xx`) errors, schema cache errors (`PGRST2xx`), and the rest (tokens, the
//! database's own errors, raised and internal errors).

use super::{pg_error_status, Error};
use axum::http::StatusCode;
use serde_json::Value;

/// What an error answers.
pub struct Parts {
    pub status: StatusCode,
    pub code: String,
    pub message: String,
    pub details: Value,
    pub hint: Value,
}

impl Parts {
    fn new(status: u16, code: &str, message: impl Into<String>) -> Self {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Parts { status, code: code.into(), message: message.into(), details: Value::Null, hint: Value::Null }
    }

    fn details(mut self, details: impl Into<String>) -> Self {
        self.details = Value::String(details.into());
        self
    }

    fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Value::String(hint.into());
        self
    }
}

/// `Some(text)` as a JSON string, `None` as null.
fn text(v: &Option<String>) -> Value {
    v.clone().map(Value::String).unwrap_or(Value::Null)
}

/// PGRST201: several relationships, listed in `details`, with the embed each hint would select.
fn ambiguous(parent: &str, child: &str, details: &Value, hints: &[String]) -> Parts {
    let hints = hints.iter().map(|h| format!("'{h}'")).collect::<Vec<_>>().join(", ");
    let message = format!("Could not embed because more than one relationship was found for '{parent}' and '{child}'");
    Parts { details: details.clone(), ..Parts::new(300, "PGRST201", message) }.hint(format!(
        "Try changing '{child}' to one of the following: {hints}. Find the desired relationship in the 'details' key."
    ))
}

impl Error {
    /// The PostgREST status, code, message, details and hint of this error.
    pub(super) fn parts(&self) -> Parts {
        self.request_parts().or_else(|| self.schema_parts()).unwrap_or_else(|| self.other_parts())
    }

    /// Connection (`PGRST0xx`) and request (`PGRST1xx`) errors.
    fn request_parts(&self) -> Option<Parts> {
        use Error::*;
        Some(match self {
            PoolTimeout => Parts::new(503, "PGRST003", "Timed out acquiring connection from connection pool."),
            Connection(d) => Parts::new(503, "PGRST000", "Database connection error.").details(d),
            Parse { message, details } => Parts::new(400, "PGRST100", message).details(details),
            RpcMethod(m) => Parts::new(405, "PGRST101", format!("Cannot use the {m} method on RPC")),
            InvalidBody(m) => Parts::new(400, "PGRST102", m),
            Range(d) => Parts::new(416, "PGRST103", "Requested range not satisfiable").details(d),
            PutFilters => {
                Parts::new(405, "PGRST105", "Filters must include all and only primary key columns with 'eq' operators")
            }
            InvalidSchema { schema, exposed } => Parts::new(406, "PGRST106", format!("Invalid schema: {schema}"))
                .hint(format!("Only the following schemas are exposed: {}", exposed.join(", "))),
            MediaType(m) => Parts::new(406, "PGRST107", format!("None of these media types are available: {m}")),
            NotEmbedded(r) => Parts::new(400, "PGRST108", format!("'{r}' is not an embedded resource in this request"))
                .hint(format!("Verify that '{r}' is included in the 'select' query parameter.")),
            PutRange => Parts::new(400, "PGRST114", "limit/offset querystring parameters are not allowed for PUT"),
            PutMismatch => Parts::new(400, "PGRST115", "Payload values do not match URL in primary key column(s)"),
            Singular(rows) => Parts::new(406, "PGRST116", "Cannot coerce the result to a single JSON object")
                .details(format!("The result contains {rows} rows")),
            Method(m) => Parts::new(405, "PGRST117", format!("Unsupported HTTP method: {m}")),
            RelatedOrder(parent, t) => Parts::new(400, "PGRST118", format!("A related order on '{t}' is not possible"))
                .details(format!("'{parent}' and '{t}' do not form a many-to-one or one-to-one relationship")),
            EmbedOperator(t) => Parts::new(400, "PGRST120", format!("Bad operator on the '{t}' embedded resource"))
                .details("Only is null or not is null filters are allowed on embedded resources"),
            _ => return self.more_request_parts(),
        })
    }

    /// Request errors `PGRST122` and up.
    fn more_request_parts(&self) -> Option<Parts> {
        use Error::*;
        Some(match self {
            StrictPreferences(p) => Parts::new(400, "PGRST122", "Invalid preferences given with handling=strict")
                .details(format!("Invalid preferences: {}", p.join(", "))),
            AggregatesDisabled => Parts::new(400, "PGRST123", "Use of aggregate functions is not allowed"),
            MaxAffected(rows) => Parts::new(400, "PGRST124", "Query result exceeds max-affected preference constraint")
                .details(format!("The query affects {rows} rows")),
            InvalidPath => Parts::new(404, "PGRST125", "Invalid path specified in request URL"),
            RootDisabled => Parts::new(404, "PGRST126", "Root endpoint metadata is disabled"),
            NotImplemented(d) => Parts::new(400, "PGRST127", "Feature not implemented").details(d),
            MaxAffectedRpc => Parts::new(
                400,
                "PGRST128",
                "Function must return SETOF or TABLE when max-affected preference is used with handling=strict",
            ),
            _ => return None,
        })
    }

    /// Schema cache errors (`PGRST2xx`): what the request names is not in the cache, or not only once.
    fn schema_parts(&self) -> Option<Parts> {
        use Error::*;
        Some(match self {
            NoRelationship { parent, child, hint, schema } => {
                let using = hint.as_ref().map(|h| format!(" using the hint '{h}'")).unwrap_or_default();
                Parts::new(
                    400,
                    "PGRST200",
                    format!("Could not find a relationship between '{parent}' and '{child}' in the schema cache"),
                )
                .details(format!(
                    "Searched for a foreign key relationship between '{parent}' and '{child}'{using} in the schema '{schema}', but no matches were found."
                ))
            }
            AmbiguousRelationship { parent, child, details, hints } => ambiguous(parent, child, details, hints),
            NoFunction { signature, details, hint } => {
                let message = format!("Could not find the function {signature} in the schema cache");
                Parts { hint: text(hint), ..Parts::new(404, "PGRST202", message).details(details) }
            }
            AmbiguousFunction(list) => {
                Parts::new(300, "PGRST203", format!("Could not choose the best candidate function between: {list}"))
                    .hint("Try renaming the parameters or the function itself in the database so function overloading can be resolved")
            }
            NoColumn { column, table } => Parts::new(
                400,
                "PGRST204",
                format!("Could not find the '{column}' column of '{table}' in the schema cache"),
            ),
            NoTable { name, hint } => {
                let message = format!("Could not find the table '{name}' in the schema cache");
                Parts { hint: text(hint), ..Parts::new(404, "PGRST205", message) }
            }
            _ => return None,
        })
    }

    /// Refused tokens (`PGRST30x`, from `jwt`), the body limit, the database's own errors, errors a function
    /// raised, and internal errors.
    fn other_parts(&self) -> Parts {
        use Error::*;
        match self {
            Jwt(j) => Parts { details: text(&j.details), ..Parts::new(401, j.code, j.message.clone()) },
            PayloadTooLarge => Parts::new(413, "PGRST413", "Request body exceeds the configured size limit"),
            Db { code, message, details, hint, authenticated } => Parts {
                status: pg_error_status(code, message, *authenticated),
                details: text(details),
                hint: text(hint),
                ..Parts::new(500, code, message.clone())
            },
            Custom { status, body, .. } => Parts {
                details: body.get("details").cloned().unwrap_or(Value::Null),
                hint: body.get("hint").cloned().unwrap_or(Value::Null),
                ..Parts::new(*status, body["code"].as_str().unwrap_or(""), body["message"].as_str().unwrap_or(""))
            },
            CustomUnparsable => {
                Parts::new(500, "PGRST121", "Could not parse JSON in the \"RAISE SQLSTATE 'PGRST'\" error")
            }
            _ => Parts::new(500, "PGRSTX00", "Internal server error"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every error's status and body as PostgREST's table gives them (recorded from the table before it was split
    /// into groups).
    #[test]
    fn every_error_answers_as_postgrest() {
        use Error::*;
        let cases: Vec<(Error, u16, &str)> = vec![
            (
                PoolTimeout,
                503,
                r#"{"code":"PGRST003","details":null,"hint":null,"message":"Timed out acquiring connection from connection pool."}"#,
            ),
            (
                Connection("down".into()),
                503,
                r#"{"code":"PGRST000","details":"down","hint":null,"message":"Database connection error."}"#,
            ),
            (
                Parse { message: "m".into(), details: "d".into() },
                400,
                r#"{"code":"PGRST100","details":"d","hint":null,"message":"m"}"#,
            ),
            (
                RpcMethod("PUT".into()),
                405,
                r#"{"code":"PGRST101","details":null,"hint":null,"message":"Cannot use the PUT method on RPC"}"#,
            ),
            (InvalidBody("bad".into()), 400, r#"{"code":"PGRST102","details":null,"hint":null,"message":"bad"}"#),
            (
                Range("r".into()),
                416,
                r#"{"code":"PGRST103","details":"r","hint":null,"message":"Requested range not satisfiable"}"#,
            ),
            (
                PutFilters,
                405,
                r#"{"code":"PGRST105","details":null,"hint":null,"message":"Filters must include all and only primary key columns with 'eq' operators"}"#,
            ),
            (
                PutRange,
                400,
                r#"{"code":"PGRST114","details":null,"hint":null,"message":"limit/offset querystring parameters are not allowed for PUT"}"#,
            ),
            (
                PutMismatch,
                400,
                r#"{"code":"PGRST115","details":null,"hint":null,"message":"Payload values do not match URL in primary key column(s)"}"#,
            ),
            (
                InvalidSchema { schema: "x".into(), exposed: vec!["a".into(), "b".into()] },
                406,
                r#"{"code":"PGRST106","details":null,"hint":"Only the following schemas are exposed: a, b","message":"Invalid schema: x"}"#,
            ),
            (
                MediaType("text/x".into()),
                406,
                r#"{"code":"PGRST107","details":null,"hint":null,"message":"None of these media types are available: text/x"}"#,
            ),
            (
                NotEmbedded("e".into()),
                400,
                r#"{"code":"PGRST108","details":null,"hint":"Verify that 'e' is included in the 'select' query parameter.","message":"'e' is not an embedded resource in this request"}"#,
            ),
            (
                Singular(3),
                406,
                r#"{"code":"PGRST116","details":"The result contains 3 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#,
            ),
            (
                Method("TRACE".into()),
                405,
                r#"{"code":"PGRST117","details":null,"hint":null,"message":"Unsupported HTTP method: TRACE"}"#,
            ),
            (
                RelatedOrder("p".into(), "t".into()),
                400,
                r#"{"code":"PGRST118","details":"'p' and 't' do not form a many-to-one or one-to-one relationship","hint":null,"message":"A related order on 't' is not possible"}"#,
            ),
            (
                EmbedOperator("t".into()),
                400,
                r#"{"code":"PGRST120","details":"Only is null or not is null filters are allowed on embedded resources","hint":null,"message":"Bad operator on the 't' embedded resource"}"#,
            ),
            (
                StrictPreferences(vec!["a".into(), "b".into()]),
                400,
                r#"{"code":"PGRST122","details":"Invalid preferences: a, b","hint":null,"message":"Invalid preferences given with handling=strict"}"#,
            ),
            (
                AggregatesDisabled,
                400,
                r#"{"code":"PGRST123","details":null,"hint":null,"message":"Use of aggregate functions is not allowed"}"#,
            ),
            (
                MaxAffected(7),
                400,
                r#"{"code":"PGRST124","details":"The query affects 7 rows","hint":null,"message":"Query result exceeds max-affected preference constraint"}"#,
            ),
            (
                InvalidPath,
                404,
                r#"{"code":"PGRST125","details":null,"hint":null,"message":"Invalid path specified in request URL"}"#,
            ),
            (
                RootDisabled,
                404,
                r#"{"code":"PGRST126","details":null,"hint":null,"message":"Root endpoint metadata is disabled"}"#,
            ),
            (
                NotImplemented("n".into()),
                400,
                r#"{"code":"PGRST127","details":"n","hint":null,"message":"Feature not implemented"}"#,
            ),
            (
                MaxAffectedRpc,
                400,
                r#"{"code":"PGRST128","details":null,"hint":null,"message":"Function must return SETOF or TABLE when max-affected preference is used with handling=strict"}"#,
            ),
            (
                NoRelationship { parent: "p".into(), child: "c".into(), hint: Some("h".into()), schema: "s".into() },
                400,
                r#"{"code":"PGRST200","details":"Searched for a foreign key relationship between 'p' and 'c' using the hint 'h' in the schema 's', but no matches were found.","hint":null,"message":"Could not find a relationship between 'p' and 'c' in the schema cache"}"#,
            ),
            (
                NoRelationship { parent: "p".into(), child: "c".into(), hint: None, schema: "s".into() },
                400,
                r#"{"code":"PGRST200","details":"Searched for a foreign key relationship between 'p' and 'c' in the schema 's', but no matches were found.","hint":null,"message":"Could not find a relationship between 'p' and 'c' in the schema cache"}"#,
            ),
            (
                AmbiguousRelationship {
                    parent: "p".into(),
                    child: "c".into(),
                    details: json!([{"a": 1}]),
                    hints: vec!["x".into(), "y".into()],
                },
                300,
                r#"{"code":"PGRST201","details":[{"a":1}],"hint":"Try changing 'c' to one of the following: 'x', 'y'. Find the desired relationship in the 'details' key.","message":"Could not embed because more than one relationship was found for 'p' and 'c'"}"#,
            ),
            (
                NoFunction { signature: "f(a)".into(), details: "d".into(), hint: Some("h".into()) },
                404,
                r#"{"code":"PGRST202","details":"d","hint":"h","message":"Could not find the function f(a) in the schema cache"}"#,
            ),
            (
                NoFunction { signature: "f(a)".into(), details: "d".into(), hint: None },
                404,
                r#"{"code":"PGRST202","details":"d","hint":null,"message":"Could not find the function f(a) in the schema cache"}"#,
            ),
            (
                AmbiguousFunction("f, g".into()),
                300,
                r#"{"code":"PGRST203","details":null,"hint":"Try renaming the parameters or the function itself in the database so function overloading can be resolved","message":"Could not choose the best candidate function between: f, g"}"#,
            ),
            (
                NoColumn { column: "c".into(), table: "t".into() },
                400,
                r#"{"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'c' column of 't' in the schema cache"}"#,
            ),
            (
                NoTable { name: "t".into(), hint: Some("h".into()) },
                404,
                r#"{"code":"PGRST205","details":null,"hint":"h","message":"Could not find the table 't' in the schema cache"}"#,
            ),
            (
                NoTable { name: "t".into(), hint: None },
                404,
                r#"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 't' in the schema cache"}"#,
            ),
            (
                PayloadTooLarge,
                413,
                r#"{"code":"PGRST413","details":null,"hint":null,"message":"Request body exceeds the configured size limit"}"#,
            ),
            (
                Db {
                    code: "42501".into(),
                    message: "m".into(),
                    details: Some("d".into()),
                    hint: None,
                    authenticated: true,
                },
                403,
                r#"{"code":"42501","details":"d","hint":null,"message":"m"}"#,
            ),
            (
                Db {
                    code: "42501".into(),
                    message: "m".into(),
                    details: None,
                    hint: Some("h".into()),
                    authenticated: false,
                },
                401,
                r#"{"code":"42501","details":null,"hint":"h","message":"m"}"#,
            ),
            (
                Db { code: "PT402".into(), message: "m".into(), details: None, hint: None, authenticated: false },
                402,
                r#"{"code":"PT402","details":null,"hint":null,"message":"m"}"#,
            ),
            (
                Custom { status: 402, body: json!({"code": "1", "message": "m", "details": "d"}), headers: vec![] },
                402,
                r#"{"code":"1","details":"d","hint":null,"message":"m"}"#,
            ),
            (
                Custom { status: 999, body: json!({"message": 5}), headers: vec![] },
                999,
                r#"{"code":null,"details":null,"hint":null,"message":5}"#,
            ),
            (
                CustomUnparsable,
                500,
                r#"{"code":"PGRST121","details":null,"hint":null,"message":"Could not parse JSON in the \"RAISE SQLSTATE 'PGRST'\" error"}"#,
            ),
            (
                Internal("x".into()),
                500,
                r#"{"code":"PGRSTX00","details":null,"hint":null,"message":"Internal server error"}"#,
            ),
        ];
        for (error, status, body) in cases {
            assert_eq!(error.status().as_u16(), status, "{error:?}");
            assert_eq!(error.body(), serde_json::from_str::<Value>(body).unwrap(), "{error:?}");
        }
    }
}
