//! The user the API server derives from a token's claims with an AuthenticationConfiguration
//! (`k8s.io/apiserver` `plugin/pkg/authenticator/token/oidc/oidc.go`, `AuthenticateToken`): the
//! JWT authenticator whose `issuer.url` is the token's `iss`, its claim validation rules (a
//! required claim value, then each expression must be true), the username (a claim with its
//! prefix, `email` only when `email_verified` is absent or true, or an expression that must give a
//! non-empty string), the groups and extra values (a string or a list of strings), the uid, and the
//! user validation rules over the result. The first failure is the answer, in the API server's
//! words. The order is `AuthenticateToken`'s: the mappings first, then the required claims and the
//! validation rules, each list of rules evaluated whole before its results are checked.

use std::collections::BTreeMap;

use super::sites::{CLAIM_MAPPING, CLAIM_VALIDATION, USER_VALIDATION, collect, items};
use crate::cel::eval::{Activation, EvalOptions, MapValue, Value};
use crate::policy::admission::explain;
use crate::policy::families::FamilySite;
use crate::yaml::Node;
use serde_json::Value as Json;

/// The user the API server would authenticate, or why it would refuse the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authenticated {
    /// The issuer URL of the authenticator that took the token.
    pub issuer: String,
    /// The username.
    pub username: String,
    /// The uid (empty when not mapped).
    pub uid: String,
    /// The groups.
    pub groups: Vec<String>,
    /// The extra values by key.
    pub extra: BTreeMap<String, Vec<String>>,
}

fn config_root(yaml: &crate::yaml::YamlFile) -> Option<&Node> {
    yaml.documents
        .iter()
        .filter_map(crate::policy::checked_root)
        .find(|root| {
            let api_version = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
            api_version.starts_with(super::GROUP)
                && root.get("kind").and_then(Node::as_str) == Some("AuthenticationConfiguration")
        })
}

/// Authenticates `claims` (a JSON object) with the configuration `config`, as the API server of
/// Kubernetes 1.`minor` does.
pub fn authenticate(config: &str, claims: &Json, minor: u32) -> Result<Authenticated, String> {
    let yaml = crate::yaml::parse(config);
    let root = config_root(&yaml).ok_or("no AuthenticationConfiguration in the file")?;
    let Json::Object(map) = claims else {
        return Err("the claims must be a JSON object".to_string());
    };
    let issuer = map.get("iss").and_then(Json::as_str).unwrap_or("");
    let sites = collect(root);
    let (index, jwt) = items(root.get("jwt"))
        .iter()
        .enumerate()
        .find(|(_, jwt)| text(jwt.get("issuer").and_then(|i| i.get("url"))) == issuer)
        .ok_or_else(|| {
            format!("no JWT authenticator has issuer.url {issuer:?} (the token's iss)")
        })?;
    let prefix = format!("jwt[{index}].");
    let own: Vec<&FamilySite> = sites
        .iter()
        .filter(|s| s.path.starts_with(&prefix))
        .collect();
    let claims_value = Value::from_json(claims).map_err(|e| e.message)?;
    let run = Run {
        jwt,
        sites: &own,
        claims: claims_value,
        json: map,
        minor,
    };
    run.authenticate(issuer)
}

fn text(node: Option<&Node>) -> &str {
    node.and_then(Node::as_str).unwrap_or("")
}

struct Run<'a> {
    jwt: &'a Node,
    sites: &'a [&'a FamilySite],
    claims: Value,
    json: &'a serde_json::Map<String, Json>,
    /// The target minor version (the credential id is given from 1.32).
    minor: u32,
}

impl Run<'_> {
    /// In `AuthenticateToken`'s order: the claim mappings (username, groups, uid, extra), the
    /// required claims, then the claim validation rules and the user validation rules.
    fn authenticate(&self, issuer: &str) -> Result<Authenticated, String> {
        let username = self.username()?;
        let groups = self.groups()?;
        let uid = self.uid()?;
        let extra = self.extra()?;
        let user = Authenticated {
            issuer: issuer.to_string(),
            username,
            uid,
            groups,
            extra,
        };
        self.required_claims()?;
        self.validations(
            CLAIM_VALIDATION,
            "claims",
            &self.claims,
            "claimValidationRules",
        )
        .map_err(|e| format!("oidc: error evaluating claim validation expression: {e}"))?;
        let user_value = user_value(&user);
        self.validations(USER_VALIDATION, "user", &user_value, "userValidationRules")
            .map_err(|e| format!("oidc: error evaluating user info validation rule: {e}"))?;
        Ok(user)
    }

    /// The claim rules: the claim must be present with the required value.
    fn required_claims(&self) -> Result<(), String> {
        for rule in items(self.jwt.get("claimValidationRules")) {
            let claim = text(rule.get("claim"));
            if claim.is_empty() {
                continue;
            }
            let wanted = text(rule.get("requiredValue"));
            let Some(value) = self.json.get(claim) else {
                return Err(format!(
                    "oidc: required claim {claim} not present in ID token"
                ));
            };
            let Some(value) = value.as_str() else {
                return Err(format!("oidc: parse claim {claim}: not a string"));
            };
            if value != wanted {
                return Err(format!(
                    "oidc: required claim {claim} value does not match. Got = {value}, want = {wanted}"
                ));
            }
        }
        Ok(())
    }

    /// The validation rules of `role` over `var`: every one is evaluated first (the first error
    /// refuses the token), then each must be a boolean and true, else its message
    /// (`checkValidationRulesEvaluation`).
    fn validations(&self, role: &str, var: &str, value: &Value, rules: &str) -> Result<(), String> {
        let sites: Vec<&FamilySite> = self
            .sites
            .iter()
            .copied()
            .filter(|s| s.role == role)
            .collect();
        let mut results = Vec::with_capacity(sites.len());
        for site in &sites {
            results.push((site, eval(site, var, value)?));
        }
        for (site, result) in results {
            match result {
                Value::Bool(true) => {}
                Value::Bool(false) => {
                    let message = self.message_of(site, rules);
                    return Err(format!(
                        "validation expression '{}' failed: {message}",
                        site.text
                    ));
                }
                _ => return Err("validation expression must return a boolean".to_string()),
            }
        }
        Ok(())
    }

    /// The `message` of the rule whose expression is `site`.
    fn message_of(&self, site: &FamilySite, rules: &str) -> String {
        items(self.jwt.get(rules))
            .iter()
            .find(|rule| text(rule.get("expression")) == site.text)
            .map(|rule| text(rule.get("message")).to_string())
            .unwrap_or_default()
    }

    fn mapping(&self, name: &str) -> Option<&FamilySite> {
        self.sites.iter().copied().find(|s| {
            s.role == CLAIM_MAPPING
                && s.name.as_deref() == Some(name)
                && !s.path.contains(".extra[")
        })
    }

    fn mapping_node(&self, field: &str) -> Option<&Node> {
        self.jwt.get("claimMappings")?.get(field)
    }

    fn username(&self) -> Result<String, String> {
        if let Some(site) = self.mapping("username") {
            let wrap = |e: String| format!("oidc: error evaluating username claim expression: {e}");
            return match eval(site, "claims", &self.claims).map_err(wrap)? {
                Value::String(s) if s.is_empty() => {
                    Err("oidc: empty username via CEL expression is not allowed".to_string())
                }
                Value::String(s) => Ok(s.to_string()),
                _ => Err(wrap(
                    "username claim expression must return a string".to_string(),
                )),
            };
        }
        let node = self.mapping_node("username");
        let claim = text(node.and_then(|n| n.get("claim")));
        let username = match self.json.get(claim) {
            Some(Json::String(s)) => s.clone(),
            Some(_) => {
                return Err(format!(
                    "oidc: parse username claims {claim:?}: not a string"
                ));
            }
            None => {
                return Err(format!(
                    "oidc: parse username claims {claim:?}: claim not present"
                ));
            }
        };
        if claim == "email"
            && let Some(verified) = self.json.get("email_verified")
        {
            match verified.as_bool() {
                Some(true) => {}
                Some(false) => return Err("oidc: email not verified".to_string()),
                None => return Err("oidc: parse 'email_verified' claim: not a boolean".to_string()),
            }
        }
        let prefix = text(node.and_then(|n| n.get("prefix")));
        Ok(format!("{prefix}{username}"))
    }

    fn groups(&self) -> Result<Vec<String>, String> {
        let node = self.mapping_node("groups");
        let claim = text(node.and_then(|n| n.get("claim")));
        if !claim.is_empty()
            && let Some(value) = self.json.get(claim)
        {
            let groups = match value {
                Json::String(s) => vec![s.clone()],
                Json::Array(items) => items
                    .iter()
                    .map(|g| g.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("oidc: parse groups claim {claim:?}: not strings"))?,
                _ => return Err(format!("oidc: parse groups claim {claim:?}: not strings")),
            };
            let prefix = text(node.and_then(|n| n.get("prefix")));
            return Ok(groups.into_iter().map(|g| format!("{prefix}{g}")).collect());
        }
        let Some(site) = self.mapping("groups") else {
            return Ok(Vec::new());
        };
        let wrap = |e: String| format!("oidc: error evaluating group claim expression: {e}");
        string_list(&eval(site, "claims", &self.claims).map_err(wrap)?).map_err(wrap)
    }

    fn uid(&self) -> Result<String, String> {
        let node = self.mapping_node("uid");
        let claim = text(node.and_then(|n| n.get("claim")));
        if !claim.is_empty() {
            return match self.json.get(claim) {
                Some(Json::String(s)) => Ok(s.clone()),
                _ => Err(format!("oidc: parse uid claim {claim:?}: not a string")),
            };
        }
        let Some(site) = self.mapping("uid") else {
            return Ok(String::new());
        };
        let wrap = |e: String| format!("oidc: error evaluating uid claim expression: {e}");
        match eval(site, "claims", &self.claims).map_err(wrap)? {
            Value::String(s) => Ok(s.to_string()),
            _ => Err(wrap(
                "uid claim expression must return a string".to_string(),
            )),
        }
    }

    /// Every extra mapping is evaluated first (a runtime error is returned as the mapper words
    /// it), then each result converted (a result of the wrong type named with its expression):
    /// `getExtra`.
    fn extra(&self) -> Result<BTreeMap<String, Vec<String>>, String> {
        let sites: Vec<&FamilySite> = self
            .sites
            .iter()
            .copied()
            .filter(|s| s.path.contains(".extra["))
            .collect();
        let mut results = Vec::with_capacity(sites.len());
        for site in sites {
            results.push((site, eval(site, "claims", &self.claims)?));
        }
        let mut extra = self.credential_id();
        for (site, result) in results {
            let value = string_list(&result).map_err(|e| {
                format!(
                    "oidc: error evaluating extra claim expression: {}: {e}",
                    site.text
                )
            })?;
            if let Some(key) = &site.name
                && !value.is_empty()
            {
                extra.insert(key.clone(), value);
            }
        }
        Ok(extra)
    }
}

impl Run<'_> {
    /// From 1.32, a string `jti` claim gives the user the extra value
    /// `authentication.kubernetes.io/credential-id: JTI=<jti>` (oidc.go `getCredentialID`,
    /// `pkg/authentication/token/jwt` `CredentialIDForJTI`).
    fn credential_id(&self) -> BTreeMap<String, Vec<String>> {
        let mut extra = BTreeMap::new();
        let jti = self.json.get("jti").and_then(Json::as_str).unwrap_or("");
        if self.minor >= CREDENTIAL_ID_MINOR && !jti.is_empty() {
            extra.insert(CREDENTIAL_ID_KEY.to_string(), vec![format!("JTI={jti}")]);
        }
        extra
    }
}

/// The extra key of a token's credential id (`k8s.io/apiserver/pkg/authentication/user`).
const CREDENTIAL_ID_KEY: &str = "authentication.kubernetes.io/credential-id";
/// The first release that sets it for JWT authenticators.
const CREDENTIAL_ID_MINOR: u32 = 32;

/// Evaluates `site` with `var` bound to `value` (traced, labelled with its path, inside an
/// `explain::capture`).
fn eval(site: &FamilySite, var: &str, value: &Value) -> Result<Value, String> {
    let parsed = crate::cel::parse(&site.text);
    if let Some(error) = parsed.errors.first() {
        return Err(format!(
            "{}: compilation failed: {}",
            site.path, error.message
        ));
    }
    let mut activation = Activation::new();
    activation.bind(var, value.clone());
    let label = || site.path.clone();
    let options = EvalOptions::default();
    explain::evaluate(label, &site.text, &parsed.ast, &activation, &options)
        .result
        .map_err(|e| runtime_error(site, &e.message))
}

/// A runtime error as the mapper words it (`pkg/authentication/cel/mapper.go`, `eval`). The API
/// server's programs have no cost limit (`compile.go` builds them with none); ours stop at the
/// per-call limit so that a run always ends, and say that the limit is ours.
fn runtime_error(site: &FamilySite, message: &str) -> String {
    let message = if message.contains("cost limit exceeded") {
        format!(
            "{message} (admission-ls stops at a cost of {}; the API server sets no cost limit on these expressions)",
            crate::cel::eval::DEFAULT_COST_LIMIT
        )
    } else {
        message.to_string()
    };
    format!("expression '{}' resulted in error: {message}", site.text)
}

/// A mapping's result as strings (`convertCELValueToStringList`): a string (none when empty), a
/// list of strings, or null.
fn string_list(value: &Value) -> Result<Vec<String>, String> {
    match value {
        Value::String(s) if s.is_empty() => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s.to_string()]),
        Value::Null => Ok(Vec::new()),
        Value::List(list) => list
            .iter()
            .map(|item| match item {
                Value::String(s) => Ok(s.to_string()),
                _ => Err("expression must return a string or a list of strings".to_string()),
            })
            .collect(),
        _ => Err("expression must return a string or a list of strings".to_string()),
    }
}

/// The `user` variable of the user validation rules.
fn user_value(user: &Authenticated) -> Value {
    let strings = |items: &[String]| {
        let json = Json::Array(items.iter().map(|s| Json::String(s.clone())).collect());
        Value::from_json(&json).unwrap_or(Value::Null)
    };
    let mut extra = MapValue::default();
    for (key, values) in &user.extra {
        extra.insert_str(key, strings(values));
    }
    let mut map = MapValue::default();
    map.insert_str("username", Value::String(user.username.as_str().into()));
    map.insert_str("uid", Value::String(user.uid.as_str().into()));
    map.insert_str("groups", strings(&user.groups));
    map.insert_str("extra", Value::Map(std::sync::Arc::new(extra)));
    Value::Map(std::sync::Arc::new(map))
}
