//! The demo catalog (as `crates/app/src/seed.rs` seeds it) and the shop's facts for the
//! assistant's tests.
#![allow(dead_code, clippy::unwrap_used)]

use super::ShopFacts;
use cart_pricing::Money;
use catalog::{Product, ProductId, Stock};

/// The Discord invite the tests' shop has.
pub const INVITE: &str = "https://discord.gg/gardenshop";

/// The shop the question sets are asked in: a 20-minute promise, a Discord server and tickets.
pub fn shop_facts() -> ShopFacts {
    ShopFacts {
        delivery_minutes: 20,
        discord_invite: Some(INVITE.to_owned()),
        discord_tickets: true,
    }
}

#[allow(clippy::too_many_arguments)]
fn product(
    id: i64,
    name: &str,
    price: &str,
    stock: Option<u32>,
    category: &str,
    savings: Option<&str>,
    related: &[i64],
    description: &str,
) -> Product {
    Product {
        max_per_account: None,
        release_at: None,
        id: ProductId::new(id),
        name: name.into(),
        description: description.into(),
        price: Money::parse(price).unwrap(),
        category: category.into(),
        image: None,
        stock: stock.map_or(Stock::Unlimited, Stock::Finite),
        weight: None,
        mutation: None,
        savings: savings.map(|s| Money::parse(s).unwrap()),
        sort_order: None,
        delete_after_out_of_stock: false,
        related_ids: related.iter().map(|id| ProductId::new(*id)).collect(),
        dupe_warning: [3, 57, 25, 26, 22, 28].contains(&id),
        archived: false,
    }
}

pub fn demo_catalog() -> Vec<Product> {
    let pet = |id, name, price, stock, description| {
        product(id, name, price, Some(stock), "Pets", None, &[], description)
    };
    let sheckles = |id, name, price, savings, description| {
        product(id, name, price, None, "Sheckles", savings, &[], description)
    };
    vec![
        product(1, "Bunny", "1.99", Some(25), "Pets", Some("3.49"), &[], "A fluffy, carrot-loving companion that speeds up your carrot harvests. Perfect first pet."),
        pet(2, "Golden Lab", "2.49", 18, "Loyal and cheerful, the Golden Lab digs up extra seeds while it follows you around the garden."),
        product(3, "Raccoon", "24.99", Some(6), "Pets", Some("34.99"), &[], "The legendary garden thief: it sneaks into neighbouring plots and brings back a duplicate of their crops."),
        product(4, "Red Fox", "9.99", Some(9), "Pets", Some("14.99"), &[], "A cunning fox that slips into other gardens to grab seeds for you."),
        pet(5, "Dragonfly", "14.99", 4, "Every so often it turns one of your fruits golden. A favourite of serious farmers."),
        pet(6, "Butterfly", "11.99", 5, "Collects mutations: fruit with several of them becomes a rainbow fruit."),
        product(7, "Kitsune", "29.99", Some(2), "Pets, Exclusives", Some("44.99"), &[], "A nine-tailed spirit fox from the event shop. Rare, beautiful and very hard to find."),
        pet(8, "Fennec Fox", "15.99", 8, "Big ears, bigger luck: it finds the best seeds in the desert biome."),
        pet(9, "Spinosaurus", "16.99", 5, "A prehistoric giant that helps your dinosaur eggs hatch faster."),
        pet(10, "T-Rex", "17.99", 0, "King of the dinosaurs. It steals mutations from other players' fruit."),
        pet(11, "Brontosaurus", "13.49", 6, "A gentle giant that makes your other pets grow bigger."),
        pet(12, "Owl", "4.99", 12, "Wise and watchful: it gives your pets a little extra experience over time."),
        pet(13, "Night Owl", "6.49", 10, "Works the night shift, boosting your pets' experience after dark."),
        pet(14, "Polar Bear", "3.49", 15, "Chills your crops so they can turn into frozen and chilled variants."),
        pet(15, "Sea Otter", "5.49", 11, "Waters your plants for you, all day long."),
        pet(16, "Hedgehog", "2.99", 20, "Small, spiky and helpful: it makes prickly fruit grow bigger."),
        pet(17, "Capybara", "7.99", 9, "So calm that the pets around it level up faster. A rainbow one, too."),
        pet(18, "Scarlet Macaw", "5.99", 14, "A bright parrot that shares its mutations with the fruit around it."),
        sheckles(19, "10 Billion Sheckles", "2.99", None, "Ten billion Sheckles delivered in game: enough for a full round of rare seeds."),
        sheckles(20, "100 Billion Sheckles", "6.99", Some("8.99"), "One hundred billion Sheckles to fill your garden with the best seeds and gear."),
        sheckles(21, "1 Trillion Sheckles", "12.99", Some("17.99"), "A trillion Sheckles: buy out the seed shop and still have plenty left."),
        product(22, "Disco Bee", "27.99", Some(3), "Pets", Some("35.99"), &[], "The party bee: it gives your fruit the rare Disco mutation."),
        sheckles(23, "10 Trillion Sheckles", "24.99", Some("34.99"), "Ten trillion Sheckles for the garden of your dreams."),
        product(24, "Starter Pet Bundle", "9.99", Some(10), "Bundles", Some("12.46"), &[1, 2, 12, 16], "Bunny, Golden Lab, Owl and Hedgehog together: four helpful pets to get your garden going."),
        product(25, "Rainbow Raccoon", "39.99", Some(2), "Pets, Exclusives", Some("49.99"), &[], "A Raccoon with the Rainbow mutation. Only a couple ever come in."),
        pet(26, "Mimic Octopus", "19.99", 3, "It copies the abilities of the pets around it."),
        product(27, "Dino Duo Bundle", "24.99", Some(4), "Bundles", Some("30.48"), &[9, 11], "Spinosaurus and Brontosaurus: a prehistoric pair at a better price."),
        pet(28, "Queen Bee", "12.99", 7, "Rules the hive and pollinates your flowers for bigger harvests."),
        product(29, "Garden Legends Bundle", "59.99", Some(2), "Bundles, Exclusives", Some("82.97"), &[3, 7, 22], "Raccoon, Kitsune and Disco Bee: the three most wanted pets in one bundle."),
        product(57, "Golden Dragonfly", "34.99", Some(1), "Exclusives, Pets", Some("44.99"), &[], "A Dragonfly that is itself golden. One of a kind in our shop."),
    ]
}
