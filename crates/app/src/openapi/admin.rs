//! The staff's calls: catalog, stock, promo codes, orders queue, refunds, blocklist, reviews,
//! chats, proofs, sales statistics and the audit log.

use utoipa::Modify;

use crate::routes::{
    admin_chats, admin_orders, admin_products, audit, blocklist, disputes, order_messages,
    private_server, promo, proofs, reviews, sales,
};

api_part! {
    #[openapi(
        paths(
            admin_products::list,
            admin_products::create,
            admin_products::standalone,
            admin_products::reorder,
            admin_products::update,
            admin_products::delete,
            admin_products::set_inventory,
            admin_products::change_inventory,
            sales::sales_stats,
            admin_orders::list,
            admin_orders::claim,
            admin_orders::release,
            admin_orders::deliver,
            admin_orders::refund,
            admin_orders::release_hold,
            order_messages::staff_list,
            order_messages::staff_post,
            private_server::show,
            private_server::set,
            private_server::remove,
            disputes::list,
            disputes::evidence_file,
            disputes::submit,
            disputes::accept,
            disputes::warnings,
            disputes::warning_evidence_file,
            blocklist::list,
            blocklist::add,
            blocklist::remove,
            blocklist::confirm,
            promo::list,
            promo::create,
            promo::update,
            promo::delete,
            reviews::hide,
            admin_chats::reply,
            admin_chats::list,
            admin_chats::show,
            admin_chats::delete,
            admin_chats::messages,
            admin_chats::mark_read,
            admin_chats::accept,
            proofs::list,
            proofs::create,
            proofs::delete,
            audit::list,
        ),
        components(schemas(
            dto::staff::Confirmation,
            dto::admin_orders::QueueFilter,
            dto::chat::StaffChatFilter,
            dto::audit::AuditPage,
            dto::audit::AuditEntryJson,
            dto::audit::AuditActorJson,
        )),
        tags(
            (name = "staff: catalog", description = "The catalog and its stock (super_admin)."),
            (name = "staff: sales", description = "The sales dashboard (super_admin)."),
            (name = "staff: orders", description = "The delivery queue and refunds (staff)."),
            (name = "staff: blocklist", description = "The identities the shop does not sell to (super_admin)."),
            (name = "staff: disputes", description = "Buyers' disputes of payments, and the evidence the shop builds from the delivery record (super_admin)."),
            (name = "staff: promo codes", description = "Promo codes: create, list, change, switch off and delete (super_admin)."),
            (name = "staff: reviews", description = "Hiding reviews (staff)."),
            (name = "staff: chats", description = "The Live Chats panel (staff)."),
            (name = "proofs", description = "Proofs of delivery: public to read, staff publish and delete."),
            (name = "staff: audit", description = "The audit log of staff actions (super_admin, read only)."),
        ),
        modifiers(&UpdateByPost),
    )]
    pub struct AdminDoc;
}

/// `admin_products::update` answers both PUT and POST (forms that can only POST): one
/// operation in the code, two in the document, which need their own ids.
struct UpdateByPost;

impl Modify for UpdateByPost {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let post = openapi
            .paths
            .paths
            .get_mut("/api/admin/products/{id}")
            .and_then(|item| item.post.as_mut());
        if let Some(post) = post {
            post.operation_id = Some("admin_update_product_by_post".to_owned());
            post.summary = Some("Update a product (the form sent with POST)".to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use utoipa::OpenApi;

    fn document() -> serde_json::Value {
        serde_json::to_value(AdminDoc::openapi()).unwrap()
    }

    #[test]
    fn every_operation_has_its_own_id() {
        let document = document();
        let mut seen = BTreeSet::new();
        for (path, item) in document["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                let id = operation["operationId"].as_str().unwrap().to_owned();
                assert!(seen.insert(id.clone()), "{method} {path}: {id} used twice");
            }
        }
        assert!(seen.contains("admin_update_product"));
        assert!(seen.contains("admin_update_product_by_post"));
    }

    #[test]
    fn staff_calls_need_the_session_and_answer_401_and_403() {
        let document = document();
        for (path, item) in document["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                if path == "/api/proofs" && method == "get" {
                    assert!(operation.get("security").is_none(), "the proofs are public");
                    continue;
                }
                assert_eq!(
                    operation["security"],
                    serde_json::json!([{ "session_cookie": [] }]),
                    "{method} {path}"
                );
                for status in ["401", "403"] {
                    assert!(
                        operation["responses"][status]["content"]["application/json"].is_object(),
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_id_in_a_path_is_documented_with_its_404() {
        let document = document();
        for (path, item) in document["paths"].as_object().unwrap() {
            if !path.contains('{') {
                continue;
            }
            for (method, operation) in item.as_object().unwrap() {
                assert_eq!(operation["parameters"][0]["in"], "path", "{method} {path}");
                assert!(operation["responses"]["404"].is_object(), "{method} {path}");
            }
        }
    }
}
