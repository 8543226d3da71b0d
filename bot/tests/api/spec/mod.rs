//! The official Lichess API description (OpenAPI 3.1, YAML split over many files), read from
//! the shared folder next to the project, and a validator for the part of JSON Schema it uses:
//! `$ref` (files and fragments), `type` (also lists and `nullable`), `const`, `enum`,
//! `properties`, `required`, `additionalProperties`, `items`, `allOf`, `anyOf`, `oneOf`. The
//! variant-key enum is relaxed to a string (our variants are not Lichess's).

use std::{
    cell::RefCell,
    collections::HashMap,
    path::{Path, PathBuf},
};

use serde_json::Value;

/// The environment variable naming the description's main YAML file.
pub const SPEC_VAR: &str = "LICHESS_API_SPEC";

/// The environment variable that turns a missing description into a failure (`1`), as CI sets it.
pub const REQUIRE_VAR: &str = "REQUIRE_LICHESS_SPEC";

/// Where the description lives: `LICHESS_API_SPEC` (the main YAML file), else the shared
/// folder beside the project (`../shared/lichess-api` from the repository root).
pub fn locate() -> PathBuf {
    if let Some(p) = std::env::var_os(SPEC_VAR) {
        return PathBuf::from(p);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/lichess-api/doc/specs/lichess-api.yaml")
}

/// Whether a missing description must fail the test (`REQUIRE_LICHESS_SPEC=1`).
fn required() -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|v| v.trim() == "1")
}

/// What is missing and how to provide it.
fn missing_notice(main: &Path) -> String {
    format!(
        "the Lichess API description is not at {} (from {}): copy the doc/specs folder of \
         https://github.com/lichess-org/api to shared/lichess-api/doc/specs beside the repository, or set \
         {SPEC_VAR} to its lichess-api.yaml",
        main.display(),
        if std::env::var_os(SPEC_VAR).is_some() {
            SPEC_VAR
        } else {
            "the default location"
        },
    )
}

/// The loaded description.
pub struct Spec {
    main: PathBuf,
    files: RefCell<HashMap<PathBuf, Value>>,
}

/// An operation: its file (for relative references) and its object.
pub struct Operation {
    pub base: PathBuf,
    pub op: Value,
}

fn yaml_to_json(y: serde_yaml::Value) -> Value {
    match y {
        serde_yaml::Value::Null => Value::Null,
        serde_yaml::Value::Bool(b) => Value::Bool(b),
        serde_yaml::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                Value::from(n.as_f64().unwrap_or(0.0))
            }
        }
        serde_yaml::Value::String(s) => Value::String(s),
        serde_yaml::Value::Sequence(seq) => Value::Array(seq.into_iter().map(yaml_to_json).collect()),
        serde_yaml::Value::Mapping(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let key = match k {
                        serde_yaml::Value::String(s) => s,
                        serde_yaml::Value::Number(n) => n.to_string(),
                        serde_yaml::Value::Bool(b) => b.to_string(),
                        other => format!("{other:?}"),
                    };
                    (key, yaml_to_json(v))
                })
                .collect(),
        ),
        serde_yaml::Value::Tagged(t) => yaml_to_json(t.value),
    }
}

fn pointer<'a>(v: &'a Value, fragment: &str) -> Option<&'a Value> {
    if fragment.is_empty() || fragment == "/" {
        return Some(v);
    }
    v.pointer(fragment)
}

impl Spec {
    /// Loads the main file, or `None` (after a notice on stderr) when it is missing, so that the
    /// test can skip. With `REQUIRE_LICHESS_SPEC=1` a missing file panics with the same notice.
    pub fn load() -> Option<Spec> {
        let main = locate();
        if !main.is_file() {
            let notice = missing_notice(&main);
            assert!(!required(), "{notice} ({REQUIRE_VAR}=1 requires it)");
            eprintln!("skipped: {notice}; set {REQUIRE_VAR}=1 to fail instead of skipping");
            return None;
        }
        Some(Spec {
            main,
            files: RefCell::new(HashMap::new()),
        })
    }

    fn file(&self, path: &Path) -> Value {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let Some(v) = self.files.borrow().get(&path) {
            return v.clone();
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let yaml: serde_yaml::Value = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let v = yaml_to_json(yaml);
        self.files.borrow_mut().insert(path, v.clone());
        v
    }

    /// Resolves a `$ref` written in a file of `base`: (the value, the file it is in).
    pub fn resolve(&self, reference: &str, base: &Path) -> (Value, PathBuf) {
        let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let target = if file.is_empty() {
            base.to_path_buf()
        } else {
            base.parent().unwrap_or(Path::new(".")).join(file)
        };
        let doc = self.file(&target);
        let v = pointer(&doc, fragment)
            .unwrap_or_else(|| panic!("{reference}: no such fragment in {}", target.display()))
            .clone();
        (v, target)
    }

    /// The operation `method` (lower case) of path template `template`.
    pub fn operation(&self, method: &str, template: &str) -> Option<Operation> {
        let main = self.file(&self.main);
        let item = main.get("paths")?.get(template)?.clone();
        let (item, base) = match item.get("$ref").and_then(Value::as_str) {
            Some(r) => self.resolve(r, &self.main),
            None => (item, self.main.clone()),
        };
        let op = item.get(method.to_lowercase())?.clone();
        Some(Operation { base, op })
    }

    /// The parameters of an operation: (in, name, schema, base).
    pub fn parameters(&self, op: &Operation) -> Vec<(String, String, Value, PathBuf)> {
        let mut out = Vec::new();
        for p in op.op.get("parameters").and_then(Value::as_array).into_iter().flatten() {
            let (p, base) = match p.get("$ref").and_then(Value::as_str) {
                Some(r) => self.resolve(r, &op.base),
                None => (p.clone(), op.base.clone()),
            };
            let field = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            out.push((
                field("in"),
                field("name"),
                p.get("schema").cloned().unwrap_or(Value::Null),
                base,
            ));
        }
        out
    }

    /// The schema of the request body for a content type, with its base file.
    pub fn request_schema(&self, op: &Operation, content_type: &str) -> Option<(Value, PathBuf)> {
        let body = op.op.get("requestBody")?;
        let (body, base) = match body.get("$ref").and_then(Value::as_str) {
            Some(r) => self.resolve(r, &op.base),
            None => (body.clone(), op.base.clone()),
        };
        let schema = body.get("content")?.get(content_type)?.get("schema")?.clone();
        Some(self.deref(schema, base))
    }

    /// The schema of the response `status` (first content type), with its base file.
    pub fn response_schema(&self, op: &Operation, status: u16) -> Option<(Value, PathBuf)> {
        let resp = op.op.get("responses")?.get(status.to_string())?;
        let (resp, base) = match resp.get("$ref").and_then(Value::as_str) {
            Some(r) => self.resolve(r, &op.base),
            None => (resp.clone(), op.base.clone()),
        };
        let content = resp.get("content")?.as_object()?;
        let (_, media) = content.iter().next()?;
        Some((media.get("schema")?.clone(), base))
    }

    /// Follows `$ref`s at the top of a schema.
    pub fn deref(&self, mut schema: Value, mut base: PathBuf) -> (Value, PathBuf) {
        while let Some(r) = schema.get("$ref").and_then(Value::as_str).map(str::to_string) {
            (schema, base) = self.resolve(&r, &base);
        }
        (schema, base)
    }

    /// The properties an object schema names anywhere (through `$ref`, `allOf`, `anyOf`,
    /// `oneOf`).
    pub fn properties(&self, schema: &Value, base: &Path) -> HashMap<String, (Value, PathBuf)> {
        let (schema, base) = self.deref(schema.clone(), base.to_path_buf());
        let mut out = HashMap::new();
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, v) in props {
                out.insert(k.clone(), (v.clone(), base.clone()));
            }
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for part in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
                out.extend(self.properties(part, &base));
            }
        }
        out
    }

    /// Reads text fields (a form, a query) into a JSON object, each value converted to the
    /// type its property schema names. Unknown fields are an error.
    pub fn typed_object(
        &self,
        fields: &[(String, String)],
        schema: &Value,
        base: &Path,
        at: &str,
    ) -> Result<Value, String> {
        let props = self.properties(schema, base);
        let mut map = serde_json::Map::new();
        for (k, text) in fields {
            let (sub, sub_base) = props
                .get(k)
                .ok_or_else(|| format!("{at}: field '{k}' is not in the description"))?;
            let (sub, _) = self.deref(sub.clone(), sub_base.clone());
            let t = sub.get("type").and_then(Value::as_str).unwrap_or("string");
            let v = text_value(text, t).ok_or_else(|| format!("{at}.{k}: '{text}' is not of type {t}"))?;
            map.insert(k.clone(), v);
        }
        Ok(Value::Object(map))
    }

    /// Checks `value` against `schema`; the error names the place and the rule.
    pub fn validate(&self, value: &Value, schema: &Value, base: &Path, at: &str) -> Result<(), String> {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            if r.ends_with("VariantKey.yaml") {
                return match value {
                    Value::String(_) => Ok(()),
                    other => Err(format!("{at}: variant key {other} is not a string")),
                };
            }
            let (s, b) = self.resolve(r, base);
            return self.validate(value, &s, &b, at);
        }
        if schema.as_bool() == Some(true) || schema.is_null() {
            return Ok(());
        }
        for part in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            self.validate(value, part, base, at)?;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(alts) = schema.get(key).and_then(Value::as_array) {
                let errors: Vec<String> = alts
                    .iter()
                    .filter_map(|a| self.validate(value, a, base, at).err())
                    .collect();
                if errors.len() == alts.len() {
                    return Err(format!("{at}: matches none of {key}: [{}]", errors.join(" | ")));
                }
            }
        }
        if let Some(c) = schema.get("const") {
            if c != value {
                return Err(format!("{at}: {value} is not the constant {c}"));
            }
        }
        if let Some(e) = schema.get("enum").and_then(Value::as_array) {
            let variant_keys = e.iter().any(|v| v == "kingOfTheHill");
            let null_ok = value.is_null() && nullable(schema);
            if !(variant_keys || e.contains(value) || null_ok) {
                return Err(format!("{at}: {value} is not one of {}", Value::Array(e.clone())));
            }
        }
        if let Some(t) = schema.get("type") {
            let types: Vec<&str> = match t {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => vec![],
            };
            let null_ok = value.is_null() && nullable(schema);
            if !(types.is_empty() || types.iter().any(|t| has_type(value, t)) || null_ok) {
                return Err(format!("{at}: {value} is not of type {t}"));
            }
        }
        if let Value::Object(map) = value {
            let props = schema.get("properties").and_then(Value::as_object);
            if let Some(props) = props {
                for (k, sub) in props {
                    if let Some(v) = map.get(k) {
                        self.validate(v, sub, base, &format!("{at}.{k}"))?;
                    }
                }
            }
            for r in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                if let Some(r) = r.as_str() {
                    if !map.contains_key(r) {
                        return Err(format!("{at}: required field '{r}' is missing"));
                    }
                }
            }
            match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    for k in map.keys() {
                        if !props.is_some_and(|p| p.contains_key(k)) {
                            return Err(format!("{at}: field '{k}' is not allowed"));
                        }
                    }
                }
                Some(extra @ Value::Object(_)) => {
                    for (k, v) in map {
                        if !props.is_some_and(|p| p.contains_key(k)) {
                            self.validate(v, extra, base, &format!("{at}.{k}"))?;
                        }
                    }
                }
                _ => {}
            }
        }
        if let (Value::Array(items), Some(item_schema)) = (value, schema.get("items")) {
            for (i, v) in items.iter().enumerate() {
                self.validate(v, item_schema, base, &format!("{at}[{i}]"))?;
            }
        }
        Ok(())
    }

    /// Checks a form or query string value (text) against a schema, by its type.
    pub fn validate_text(&self, text: &str, schema: &Value, base: &Path, at: &str) -> Result<(), String> {
        let (schema, base) = self.deref(schema.clone(), base.to_path_buf());
        let t = schema.get("type").and_then(Value::as_str).unwrap_or("string");
        let value = text_value(text, t).ok_or_else(|| format!("{at}: '{text}' is not of type {t}"))?;
        self.validate(&value, &schema, &base, at)
    }
}

fn text_value(text: &str, t: &str) -> Option<Value> {
    Some(match t {
        "boolean" => Value::Bool(text.parse().ok()?),
        "integer" => Value::from(text.parse::<i64>().ok()?),
        "number" => Value::from(text.parse::<f64>().ok()?),
        _ => Value::String(text.to_string()),
    })
}

fn nullable(schema: &Value) -> bool {
    schema.get("nullable").and_then(Value::as_bool) == Some(true)
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "null" => v.is_null(),
        _ => true,
    }
}
