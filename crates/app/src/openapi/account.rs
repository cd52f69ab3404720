//! The storefront's public calls and the shopper's account: health, site, products, sign-up,
//! login, password reset, profile and its export and erasure, and this document.

use crate::routes::{auth, health, meta, products, profile, site};

api_part! {
    #[openapi(
        paths(
            meta::serve,
            health::health,
            health::ready,
            site::site,
            site::refund_policy,
            products::list,
            products::show,
            products::related_ids,
            auth::check,
            auth::login,
            auth::logout,
            auth::send_verification_code,
            auth::verify_code,
            auth::forgot_password,
            auth::reset_password,
            auth::me,
            profile::profile,
            profile::update,
            profile::export,
            profile::delete,
        ),
        components(schemas(
            dto::ProductResponse,
            dto::account::UserResponse,
            dto::account::AccountType,
        )),
        tags(
            (name = "storefront", description = "The shop's public catalog and settings."),
            (name = "accounts", description = "Sign-up, login, password reset, the profile, its export and erasure."),
            (name = "meta", description = "Health and this document."),
        ),
    )]
    pub struct AccountDoc;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use cart_pricing::Money;
    use catalog::{Product, ProductId, Stock};
    use serde_json::{json, Value};

    use crate::auth::CurrentUser;
    use dto::account::UserResponse;
    use dto::ProductResponse;

    /// The whole document as JSON (all three parts and the shared components).
    fn document() -> Value {
        serde_json::to_value(super::super::document()).unwrap()
    }

    /// Whether `value` conforms to `schema`: the parts of JSON Schema the document uses
    /// (`$ref`, `allOf`, `oneOf`, `anyOf`, `type` incl. `null`, `enum`, `properties`,
    /// `required`, `items`); an error says where it does not.
    fn check(document: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
        if let Some(reference) = schema["$ref"].as_str() {
            let name = reference.trim_start_matches("#/components/schemas/");
            let target = &document["components"]["schemas"][name];
            assert!(target.is_object(), "{at}: no schema {name}");
            return check(document, target, value, at);
        }
        if let Some(all) = schema["allOf"].as_array() {
            for part in all {
                check(document, part, value, at)?;
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(alternatives) = schema[key].as_array() {
                let matching = alternatives
                    .iter()
                    .filter(|alt| check(document, alt, value, at).is_ok())
                    .count();
                if matching == 0 || (key == "oneOf" && matching > 1) {
                    return Err(format!("{at}: {matching} of {key} match {value}"));
                }
            }
        }
        if let Some(types) = match &schema["type"] {
            Value::String(one) => Some(vec![one.as_str()]),
            Value::Array(many) => Some(many.iter().filter_map(Value::as_str).collect()),
            _ => None,
        } {
            let fits = types.iter().any(|kind| match *kind {
                "null" => value.is_null(),
                "boolean" => value.is_boolean(),
                "integer" => value.is_i64() || value.is_u64(),
                "number" => value.is_number(),
                "string" => value.is_string(),
                "array" => value.is_array(),
                "object" => value.is_object(),
                other => panic!("{at}: unknown type {other}"),
            });
            if !fits {
                return Err(format!("{at}: {value} is not {types:?}"));
            }
        }
        if let Some(allowed) = schema["enum"].as_array() {
            if !allowed.contains(value) {
                return Err(format!("{at}: {value} is not one of {allowed:?}"));
            }
        }
        if let (Some(properties), Some(object)) =
            (schema["properties"].as_object(), value.as_object())
        {
            for name in schema["required"].as_array().into_iter().flatten() {
                let name = name.as_str().unwrap();
                if !object.contains_key(name) {
                    return Err(format!("{at}: required {name} is missing"));
                }
            }
            for (name, property) in properties {
                if let Some(field) = object.get(name) {
                    check(document, property, field, &format!("{at}.{name}"))?;
                }
            }
        }
        if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
            for (index, item) in array.iter().enumerate() {
                check(document, items, item, &format!("{at}[{index}]"))?;
            }
        }
        Ok(())
    }

    fn schema(document: &Value, name: &str) -> Value {
        document["components"]["schemas"][name].clone()
    }

    /// The names of an object schema's properties and of its required ones.
    fn names(schema: &Value, key: &str) -> Vec<String> {
        let mut names: Vec<String> = match &schema[key] {
            Value::Object(map) => map.keys().cloned().collect(),
            Value::Array(list) => list
                .iter()
                .map(|name| name.as_str().unwrap().to_owned())
                .collect(),
            _ => vec![],
        };
        names.sort();
        names
    }

    fn product(full: bool) -> Product {
        Product {
            max_per_account: full.then_some(1),
            release_at: full.then(|| chrono::Utc::now() + chrono::Duration::minutes(5)),
            id: ProductId::new(3),
            name: "Golden Raccoon".into(),
            description: "Shiny.".into(),
            price: Money::from_cents(499).unwrap(),
            category: "Pets".into(),
            image: full.then(|| "/media/products/ab12.png".into()),
            stock: if full {
                Stock::Finite(4)
            } else {
                Stock::Unlimited
            },
            weight: full.then_some(1.5),
            mutation: full.then(|| "Rainbow".into()),
            savings: full.then(|| Money::from_cents(999).unwrap()),
            sort_order: full.then_some(2),
            delete_after_out_of_stock: full,
            related_ids: if full {
                vec![ProductId::new(1)]
            } else {
                vec![]
            },
            dupe_warning: full,
            archived: false,
        }
    }

    /// The snapshot (`GET /api/products`) and `GET /api/products/{id}` serialise
    /// `ProductResponse`: the schema names exactly its fields, all required, and both a product
    /// with every optional field empty (null) and one with all of them set conform.
    #[test]
    fn the_product_schema_is_exactly_what_the_storefront_sends() {
        let document = document();
        let product_schema = schema(&document, "Product");
        for full in [false, true] {
            let sent =
                serde_json::to_value(ProductResponse::at(&product(full), chrono::Utc::now()))
                    .unwrap();
            let mut keys: Vec<String> = sent.as_object().unwrap().keys().cloned().collect();
            keys.sort();
            assert_eq!(names(&product_schema, "properties"), keys);
            assert_eq!(names(&product_schema, "required"), keys);
            check(&document, &product_schema, &sent, "Product").unwrap();
        }
        // the list is an array of it
        let list = &document["paths"]["/api/products"]["get"]["responses"]["200"]["content"]
            ["application/json"]["schema"];
        let sent = serde_json::to_value(vec![ProductResponse::at(
            &product(true),
            chrono::Utc::now(),
        )])
        .unwrap();
        check(&document, list, &sent, "list").unwrap();
        assert!(check(&document, list, &json!([{"id": 1}]), "list").is_err());
        // the nullable fields are the ones the frontend's type allows to be null, no others
        for field in ["name", "price", "inventory", "related_ids", "dupe_warning"] {
            let mut sent =
                serde_json::to_value(ProductResponse::at(&product(true), chrono::Utc::now()))
                    .unwrap();
            sent[field] = Value::Null;
            assert!(
                check(&document, &product_schema, &sent, "Product").is_err(),
                "{field} may not be null"
            );
        }
    }

    #[test]
    fn the_user_schema_is_what_the_account_calls_send() {
        let document = document();
        let user_schema = schema(&document, "User");
        for (role, account_type) in [
            (accounts::Role::Customer, "customer"),
            (accounts::Role::Admin, "admin"),
            (accounts::Role::SuperAdmin, "super_admin"),
        ] {
            let user = CurrentUser {
                id: 7,
                name: "Ann".into(),
                email: "ann@example.com".into(),
                role,
                language: None,
            };
            let sent = serde_json::to_value(UserResponse::from(&user)).unwrap();
            assert_eq!(sent["account_type"], account_type);
            check(&document, &user_schema, &sent, "User").unwrap();
            let mut keys: Vec<String> = sent.as_object().unwrap().keys().cloned().collect();
            keys.sort();
            assert_eq!(names(&user_schema, "required"), keys);
        }
        let wrong = json!({"id": 7, "name": "Ann", "email": "a@b.c", "account_type": "root"});
        assert!(check(&document, &user_schema, &wrong, "User").is_err());
        // the session check: a guest's `user` is null, a user's is a User
        let check_schema = &document["paths"]["/api/auth/check"]["get"]["responses"]["200"]
            ["content"]["application/json"]["schema"];
        let guest = json!({"loggedIn": false, "user": null});
        check(&document, check_schema, &guest, "AuthCheck").unwrap();
        let member = json!({"loggedIn": true, "user": {"id": 7, "name": "Ann",
            "email": "ann@example.com", "account_type": "customer"}});
        check(&document, check_schema, &member, "AuthCheck").unwrap();
        assert!(check(
            &document,
            check_schema,
            &json!({"loggedIn": true}),
            "AuthCheck"
        )
        .is_err());
    }

    /// Every call of this part answers its errors with `ErrorBody`, and every 4xx is there.
    #[test]
    fn the_account_calls_document_their_errors() {
        let document = document();
        let expect: [(&str, &str, &[&str]); 8] = [
            ("/api/products/{id}", "get", &["404"]),
            (
                "/api/login",
                "post",
                &["400", "401", "403", "413", "415", "422", "429"],
            ),
            (
                "/api/send-verification-code",
                "post",
                &["422", "429", "503"],
            ),
            ("/api/verify-code", "post", &["422", "429"]),
            ("/api/forgot-password", "post", &["422", "429"]),
            ("/api/reset-password", "post", &["422"]),
            ("/api/me", "get", &["401"]),
            ("/api/profile", "delete", &["401", "403", "409", "422"]),
        ];
        for (path, method, statuses) in expect {
            let responses = &document["paths"][path][method]["responses"];
            for status in statuses {
                let reference = &responses[status]["content"]["application/json"]["schema"]["$ref"];
                assert_eq!(
                    reference, "#/components/schemas/ErrorBody",
                    "{method} {path} {status}"
                );
            }
        }
        let retry = &document["paths"]["/api/login"]["post"]["responses"]["429"]["headers"];
        assert!(retry["Retry-After"].is_object());
        // the shape the server writes: only `message`, `code` and `errors` are always there
        let error_body = schema(&document, "ErrorBody");
        assert_eq!(
            names(&error_body, "required"),
            ["code", "errors", "message"]
        );
        let not_found = json!({"message": "Product not found.", "code": "not_found", "errors": {}});
        check(&document, &error_body, &not_found, "ErrorBody").unwrap();
    }
}
