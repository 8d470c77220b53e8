//! OpenAPI and CRD schemas as CEL types; empty until the schema work lands (issue 4).
