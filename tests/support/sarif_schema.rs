//! A test-only validator for SARIF 2.1.0 logs against the rules of the OASIS schema
//! (oasis-tcs/sarif-spec `Schemata/sarif-schema-2.1.0.json`) for the objects admission-ls writes.
//! The schema file is not vendored; its rules are written out here as data: every object has
//! `additionalProperties: false` with these properties, these required ones, enumerations for
//! `version`, `level` and `columnKind`, and a minimum of 1 for region lines and columns.

use serde_json::Value as Json;

/// (definition, properties, required).
const OBJECTS: &[(&str, &[&str], &[&str])] = &[
    (
        "sarifLog",
        &[
            "$schema",
            "version",
            "runs",
            "inlineExternalProperties",
            "properties",
        ],
        &["version", "runs"],
    ),
    (
        "run",
        &[
            "tool",
            "invocations",
            "conversion",
            "language",
            "versionControlProvenance",
            "originalUriBaseIds",
            "artifacts",
            "logicalLocations",
            "graphs",
            "results",
            "automationDetails",
            "runAggregates",
            "baselineGuid",
            "redactionTokens",
            "defaultEncoding",
            "defaultSourceLanguage",
            "newlineSequences",
            "columnKind",
            "externalPropertyFileReferences",
            "threadFlowLocations",
            "taxonomies",
            "addresses",
            "translations",
            "policies",
            "webRequests",
            "webResponses",
            "specialLocations",
            "properties",
        ],
        &["tool"],
    ),
    ("tool", &["driver", "extensions", "properties"], &["driver"]),
    (
        "toolComponent",
        &[
            "guid",
            "name",
            "organization",
            "product",
            "productSuite",
            "shortDescription",
            "fullDescription",
            "fullName",
            "version",
            "semanticVersion",
            "dottedQuadFileVersion",
            "releaseDateUtc",
            "downloadUri",
            "informationUri",
            "globalMessageStrings",
            "notifications",
            "rules",
            "taxa",
            "locations",
            "language",
            "contents",
            "isComprehensive",
            "localizedDataSemanticVersion",
            "minimumRequiredLocalizedDataSemanticVersion",
            "associatedComponent",
            "translationMetadata",
            "supportedTaxonomies",
            "properties",
        ],
        &["name"],
    ),
    (
        "reportingDescriptor",
        &[
            "id",
            "deprecatedIds",
            "guid",
            "deprecatedGuids",
            "name",
            "deprecatedNames",
            "shortDescription",
            "fullDescription",
            "messageStrings",
            "defaultConfiguration",
            "helpUri",
            "help",
            "relationships",
            "properties",
        ],
        &["id"],
    ),
    (
        "multiformatMessageString",
        &["text", "markdown", "properties"],
        &["text"],
    ),
    (
        "result",
        &[
            "ruleId",
            "ruleIndex",
            "rule",
            "kind",
            "level",
            "message",
            "analysisTarget",
            "locations",
            "guid",
            "correlationGuid",
            "occurrenceCount",
            "partialFingerprints",
            "fingerprints",
            "stacks",
            "codeFlows",
            "graphs",
            "graphTraversals",
            "relatedLocations",
            "suppressions",
            "baselineState",
            "rank",
            "attachments",
            "hostedViewerUri",
            "workItemUris",
            "provenance",
            "fixes",
            "taxa",
            "webRequest",
            "webResponse",
            "properties",
        ],
        &["message"],
    ),
    (
        "message",
        &["text", "markdown", "id", "arguments", "properties"],
        &[],
    ),
    (
        "location",
        &[
            "id",
            "physicalLocation",
            "logicalLocations",
            "message",
            "annotations",
            "relationships",
            "properties",
        ],
        &[],
    ),
    (
        "physicalLocation",
        &[
            "address",
            "artifactLocation",
            "region",
            "contextRegion",
            "properties",
        ],
        &[],
    ),
    (
        "artifactLocation",
        &["uri", "uriBaseId", "index", "description", "properties"],
        &[],
    ),
    (
        "region",
        &[
            "startLine",
            "startColumn",
            "endLine",
            "endColumn",
            "charOffset",
            "charLength",
            "byteOffset",
            "byteLength",
            "snippet",
            "message",
            "sourceLanguage",
            "properties",
        ],
        &[],
    ),
];

struct Checker(Vec<String>);

impl Checker {
    fn object(&mut self, value: &Json, definition: &str, at: &str) {
        let Some(map) = value.as_object() else {
            self.0
                .push(format!("{at}: a {definition} must be an object"));
            return;
        };
        let Some((_, properties, required)) = OBJECTS.iter().find(|(d, ..)| *d == definition)
        else {
            self.0
                .push(format!("{at}: unknown definition {definition}"));
            return;
        };
        for key in map.keys() {
            if !properties.contains(&key.as_str()) {
                self.0
                    .push(format!("{at}: {definition} has no property {key}"));
            }
        }
        for key in *required {
            if !map.contains_key(*key) {
                self.0.push(format!("{at}: {definition} requires {key}"));
            }
        }
    }

    fn each(
        &mut self,
        value: Option<&Json>,
        definition: &str,
        at: &str,
        check: &mut dyn FnMut(&mut Self, &Json, &str),
    ) {
        let Some(value) = value else { return };
        let Some(items) = value.as_array() else {
            self.0
                .push(format!("{at}: must be an array of {definition}"));
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let at = format!("{at}[{i}]");
            self.object(item, definition, &at);
            check(self, item, &at);
        }
    }

    fn text(&mut self, value: Option<&Json>, definition: &str, at: &str) {
        if let Some(value) = value {
            self.object(value, definition, at);
            if value.get("text").is_none() && value.get("id").is_none() {
                self.0
                    .push(format!("{at}: a {definition} needs text or id"));
            }
        }
    }

    fn enumeration(&mut self, value: Option<&Json>, allowed: &[&str], at: &str) {
        if let Some(value) = value
            && !value.as_str().is_some_and(|v| allowed.contains(&v))
        {
            self.0
                .push(format!("{at}: {value} is not one of {allowed:?}"));
        }
    }

    fn region(&mut self, region: &Json, at: &str) {
        self.object(region, "region", at);
        for key in ["startLine", "startColumn", "endLine", "endColumn"] {
            if let Some(v) = region.get(key)
                && v.as_u64().is_none_or(|n| n < 1)
            {
                self.0
                    .push(format!("{at}.{key}: {v} is not an integer ≥ 1"));
            }
        }
    }
}

/// Every violation of the schema in `log` (empty: valid).
pub fn violations(log: &Json) -> Vec<String> {
    let mut c = Checker(Vec::new());
    c.object(log, "sarifLog", "$");
    c.enumeration(log.get("version"), &["2.1.0"], "$.version");
    c.each(log.get("runs"), "run", "$.runs", &mut |c, run, at| {
        c.enumeration(
            run.get("columnKind"),
            &["utf16CodeUnits", "unicodeCodePoints"],
            &format!("{at}.columnKind"),
        );
        if let Some(tool) = run.get("tool") {
            c.object(tool, "tool", &format!("{at}.tool"));
            if let Some(driver) = tool.get("driver") {
                let at = format!("{at}.tool.driver");
                c.object(driver, "toolComponent", &at);
                c.each(
                    driver.get("rules"),
                    "reportingDescriptor",
                    &format!("{at}.rules"),
                    &mut |c, rule, at| {
                        c.text(
                            rule.get("shortDescription"),
                            "multiformatMessageString",
                            &format!("{at}.shortDescription"),
                        );
                        c.text(
                            rule.get("fullDescription"),
                            "multiformatMessageString",
                            &format!("{at}.fullDescription"),
                        );
                    },
                );
            }
        }
        c.each(
            run.get("results"),
            "result",
            &format!("{at}.results"),
            &mut |c, result, at| {
                c.enumeration(
                    result.get("level"),
                    &["none", "note", "warning", "error"],
                    &format!("{at}.level"),
                );
                c.text(result.get("message"), "message", &format!("{at}.message"));
                c.each(
                    result.get("locations"),
                    "location",
                    &format!("{at}.locations"),
                    &mut |c, location, at| {
                        if let Some(physical) = location.get("physicalLocation") {
                            let at = format!("{at}.physicalLocation");
                            c.object(physical, "physicalLocation", &at);
                            if let Some(artifact) = physical.get("artifactLocation") {
                                c.object(
                                    artifact,
                                    "artifactLocation",
                                    &format!("{at}.artifactLocation"),
                                );
                            }
                            if let Some(region) = physical.get("region") {
                                c.region(region, &format!("{at}.region"));
                            }
                        }
                    },
                );
            },
        );
    });
    c.0
}
