//! Request bodies that are not JSON, turned into the JSON the write path reads, as PostgREST's `Payload` does:
//! `text/csv` (a header row naming the columns, one object per record, the text `NULL` meaning null) and
//! `application/x-www-form-urlencoded` (one object of text values).

use super::super::error::Error;
use bytes::Bytes;
use serde_json::{Map, Value};

/// The JSON for a CSV or form body, `None` for any other content type (left to the JSON reader).
pub fn to_json(content_type: Option<&str>, body: &[u8]) -> Result<Option<Bytes>, Error> {
    let essence = content_type.and_then(|c| c.split(';').next()).unwrap_or("").trim().to_ascii_lowercase();
    let value = match essence.as_str() {
        "text/csv" => csv_rows(body)?,
        "application/x-www-form-urlencoded" => form_object(body),
        _ => return Ok(None),
    };
    Ok(Some(Bytes::from(value.to_string())))
}

fn csv_rows(body: &[u8]) -> Result<Value, Error> {
    let invalid = |e: csv::Error| Error::InvalidBody(format!("Error in CSV body: {e}"));
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(body);
    let headers = reader.headers().map_err(invalid)?.clone();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(invalid)?;
        let row: Map<String, Value> = headers
            .iter()
            .zip(record.iter())
            .map(|(k, v)| (k.to_string(), if v == "NULL" { Value::Null } else { Value::String(v.to_string()) }))
            .collect();
        rows.push(Value::Object(row));
    }
    Ok(Value::Array(rows))
}

fn form_object(body: &[u8]) -> Value {
    let object: Map<String, Value> =
        url::form_urlencoded::parse(body).map(|(k, v)| (k.into_owned(), Value::String(v.into_owned()))).collect();
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::to_json;
    use serde_json::{json, Value};

    fn parsed(ct: &str, body: &str) -> Value {
        serde_json::from_slice(&to_json(Some(ct), body.as_bytes()).unwrap().unwrap()).unwrap()
    }

    #[test]
    fn csv_rows_become_objects_with_null_for_the_text_null() {
        let body = "id,name,note\n1,\"Doe, Jane\",NULL\r\n2,\"say \"\"hi\"\"\",\n";
        assert_eq!(
            parsed("text/csv; charset=utf-8", body),
            json!([{"id": "1", "name": "Doe, Jane", "note": null}, {"id": "2", "name": "say \"hi\"", "note": ""}])
        );
        assert_eq!(parsed("text/csv", "id,name\n"), json!([]));
    }

    #[test]
    fn a_ragged_csv_is_refused_and_json_is_left_alone() {
        assert!(to_json(Some("text/csv"), b"id,name\n1,a,extra\n").is_err());
        assert_eq!(to_json(Some("application/json"), b"{}").unwrap(), None);
        assert_eq!(to_json(None, b"{}").unwrap(), None);
    }

    #[test]
    fn form_bodies_are_one_object() {
        assert_eq!(
            parsed("application/x-www-form-urlencoded", "name=A+B&city=S%C3%A3o"),
            json!({"name": "A B", "city": "São"})
        );
    }
}
