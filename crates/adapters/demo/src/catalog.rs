//! The demo catalog a new shop starts with, so `just run` opens a full storefront, with a
//! picture of each product (`pictures/<id>.png`, drawn for this shop and built into the binary).

use anyhow::Context;
use cart_pricing::Money;
use catalog::{Catalog, ProductDraft, ProductId, ProductRepository, Stock};
use media::MediaStore;

struct Demo {
    id: i64,
    name: &'static str,
    category: &'static str,
    price: &'static str,
    savings: Option<&'static str>,
    /// None: unlimited.
    stock: Option<u32>,
    weight: Option<f64>,
    mutation: Option<&'static str>,
    sort_order: Option<i32>,
    related: &'static [i64],
    description: &'static str,
}

const fn pet(
    id: i64,
    name: &'static str,
    price: &'static str,
    stock: u32,
    weight: f64,
    description: &'static str,
) -> Demo {
    Demo {
        id,
        name,
        category: "Pets",
        price,
        savings: None,
        stock: Some(stock),
        weight: Some(weight),
        mutation: None,
        sort_order: None,
        related: &[],
        description,
    }
}

const fn sheckles(
    id: i64,
    name: &'static str,
    price: &'static str,
    savings: Option<&'static str>,
    description: &'static str,
) -> Demo {
    Demo {
        id,
        name,
        category: "Sheckles",
        price,
        savings,
        stock: None,
        weight: None,
        mutation: None,
        sort_order: None,
        related: &[],
        description,
    }
}

/// Products that may be flagged as a dupe by the game after delivery: shoppers confirm first.
const DUPE_WARNING_IDS: [i64; 6] = [3, 57, 25, 26, 22, 28];
/// Archived as soon as a sale empties their stock.
const ONE_OFF_IDS: [i64; 2] = [25, 57];

const DEMO: [Demo; 30] = [
    Demo { savings: Some("3.49"), ..pet(1, "Bunny", "1.99", 25, 1.2, "A fluffy, carrot-loving companion that speeds up your carrot harvests. Perfect first pet.") },
    pet(2, "Golden Lab", "2.49", 18, 1.5, "Loyal and cheerful, the Golden Lab digs up extra seeds while it follows you around the garden."),
    Demo { savings: Some("34.99"), sort_order: Some(1), ..pet(3, "Raccoon", "24.99", 6, 2.8, "The legendary garden thief: it sneaks into neighbouring plots and brings back a duplicate of their crops.") },
    Demo { savings: Some("14.99"), ..pet(4, "Red Fox", "9.99", 9, 2.1, "A cunning fox that slips into other gardens to grab seeds for you.") },
    Demo { mutation: Some("Gold"), ..pet(5, "Dragonfly", "14.99", 4, 0.9, "Every so often it turns one of your fruits golden. A favourite of serious farmers.") },
    pet(6, "Butterfly", "11.99", 5, 1.0, "Collects mutations: fruit with several of them becomes a rainbow fruit."),
    Demo { category: "Pets, Exclusives", savings: Some("44.99"), sort_order: Some(3), ..pet(7, "Kitsune", "29.99", 2, 3.2, "A nine-tailed spirit fox from the event shop. Rare, beautiful and very hard to find.") },
    pet(8, "Fennec Fox", "15.99", 8, 1.7, "Big ears, bigger luck: it finds the best seeds in the desert biome."),
    pet(9, "Spinosaurus", "16.99", 5, 4.1, "A prehistoric giant that helps your dinosaur eggs hatch faster."),
    pet(10, "T-Rex", "17.99", 0, 4.5, "King of the dinosaurs. It steals mutations from other players' fruit."),
    pet(11, "Brontosaurus", "13.49", 6, 5.0, "A gentle giant that makes your other pets grow bigger."),
    pet(12, "Owl", "4.99", 12, 1.3, "Wise and watchful: it gives your pets a little extra experience over time."),
    Demo { mutation: Some("Moonlit"), ..pet(13, "Night Owl", "6.49", 10, 1.4, "Works the night shift, boosting your pets' experience after dark.") },
    pet(14, "Polar Bear", "3.49", 15, 2.6, "Chills your crops so they can turn into frozen and chilled variants."),
    pet(15, "Sea Otter", "5.49", 11, 1.8, "Waters your plants for you, all day long."),
    pet(16, "Hedgehog", "2.99", 20, 0.8, "Small, spiky and helpful: it makes prickly fruit grow bigger."),
    Demo { mutation: Some("Rainbow"), ..pet(17, "Capybara", "7.99", 9, 2.2, "So calm that the pets around it level up faster. A rainbow one, too.") },
    pet(18, "Scarlet Macaw", "5.99", 14, 1.1, "A bright parrot that shares its mutations with the fruit around it."),
    sheckles(19, "10 Billion Sheckles", "2.99", None, "Ten billion Sheckles delivered in game: enough for a full round of rare seeds."),
    sheckles(20, "100 Billion Sheckles", "6.99", Some("8.99"), "One hundred billion Sheckles to fill your garden with the best seeds and gear."),
    sheckles(21, "1 Trillion Sheckles", "12.99", Some("17.99"), "A trillion Sheckles: buy out the seed shop and still have plenty left."),
    Demo { savings: Some("35.99"), sort_order: Some(2), ..pet(22, "Disco Bee", "27.99", 3, 1.0, "The party bee: it gives your fruit the rare Disco mutation.") },
    sheckles(23, "10 Trillion Sheckles", "24.99", Some("34.99"), "Ten trillion Sheckles for the garden of your dreams."),
    Demo {
        category: "Bundles",
        savings: Some("12.46"),
        stock: Some(10),
        weight: None,
        related: &[1, 2, 12, 16],
        ..pet(24, "Starter Pet Bundle", "9.99", 10, 0.0, "Bunny, Golden Lab, Owl and Hedgehog together: four helpful pets to get your garden going.")
    },
    Demo { category: "Pets, Exclusives", savings: Some("49.99"), mutation: Some("Rainbow"), ..pet(25, "Rainbow Raccoon", "39.99", 2, 3.0, "A Raccoon with the Rainbow mutation. Only a couple ever come in.") },
    Demo { mutation: Some("Shocked"), ..pet(26, "Mimic Octopus", "19.99", 3, 2.4, "It copies the abilities of the pets around it.") },
    Demo {
        category: "Bundles",
        savings: Some("30.48"),
        weight: None,
        related: &[9, 11],
        ..pet(27, "Dino Duo Bundle", "24.99", 4, 0.0, "Spinosaurus and Brontosaurus: a prehistoric pair at a better price.")
    },
    pet(28, "Queen Bee", "12.99", 7, 1.1, "Rules the hive and pollinates your flowers for bigger harvests."),
    Demo {
        category: "Bundles, Exclusives",
        savings: Some("82.97"),
        weight: None,
        related: &[3, 7, 22],
        ..pet(29, "Garden Legends Bundle", "59.99", 2, 0.0, "Raccoon, Kitsune and Disco Bee: the three most wanted pets in one bundle.")
    },
    Demo { category: "Exclusives, Pets", savings: Some("44.99"), mutation: Some("Gold"), ..pet(57, "Golden Dragonfly", "34.99", 1, 1.0, "A Dragonfly that is itself golden. One of a kind in our shop.") },
];

/// The picture of each demo product, by id: its animal, coins for Sheckles (more for larger
/// amounts), a bundle's animals together; exclusives stand on a sunburst.
macro_rules! pictures {
    ($($id:literal),* $(,)?) => {
        [$(($id, include_bytes!(concat!("../pictures/", $id, ".png")).as_slice())),*]
    };
}
const PICTURES: [(i64, &[u8]); 30] = pictures![
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
    27, 28, 29, 57
];

fn picture(demo: &Demo) -> anyhow::Result<&'static [u8]> {
    PICTURES
        .iter()
        .find(|(id, _)| *id == demo.id)
        .map(|(_, png)| *png)
        .with_context(|| format!("no picture for {}", demo.name))
}

fn money(text: &str) -> anyhow::Result<Money> {
    Money::parse(text).with_context(|| format!("demo price {text}"))
}

fn draft(demo: &Demo, image: String) -> anyhow::Result<ProductDraft> {
    let stock = demo.stock.map_or(Stock::Unlimited, Stock::Finite);
    Ok(ProductDraft {
        max_per_account: None,
        release_at: None,
        name: demo.name.to_owned(),
        description: demo.description.to_owned(),
        price: money(demo.price)?,
        category: demo.category.to_owned(),
        image: Some(image),
        stock,
        weight: demo.weight,
        mutation: demo.mutation.map(str::to_owned),
        savings: demo.savings.map(money).transpose()?,
        sort_order: demo.sort_order,
        delete_after_out_of_stock: ONE_OFF_IDS.contains(&demo.id),
        related_ids: demo.related.iter().copied().map(ProductId::new).collect(),
        dupe_warning: DUPE_WARNING_IDS.contains(&demo.id),
    })
}

/// Fills an empty catalog with the demo products. True when this call seeded it; false when
/// products exist, also when another instance (on SQLite, where no lock is held) filled it first.
pub async fn demo_catalog<R: ProductRepository>(
    catalog: &Catalog<R>,
    media: &MediaStore,
) -> anyhow::Result<bool> {
    let repository = catalog.repository();
    if repository.count_products().await? > 0 {
        return Ok(false);
    }
    let started = std::time::Instant::now();
    let mut products = Vec::with_capacity(DEMO.len());
    for demo in &DEMO {
        let image = media
            .save_png("products", picture(demo)?)
            .with_context(|| format!("saving the image of {}", demo.name))?;
        products.push((ProductId::new(demo.id), draft(demo, image)?));
    }
    if let Err(error) = repository.insert_with_ids(products).await {
        // One transaction: either all of it is in, or none of it. Someone else's catalog
        // means another instance won the race; anything else is a real failure.
        if repository.count_products().await? > 0 {
            return Ok(false);
        }
        return Err(error.into());
    }
    tracing::info!(
        count = DEMO.len(),
        elapsed_ms = started.elapsed().as_millis() as u64,
        "seeded the demo catalog"
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_catalog_is_consistent() {
        let ids: Vec<i64> = DEMO.iter().map(|d| d.id).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "ids are unique");
        for id in DUPE_WARNING_IDS {
            assert!(ids.contains(&id), "dupe-warning product {id} exists");
        }
        assert_eq!(
            DEMO.iter().filter(|d| d.stock == Some(0)).count(),
            1,
            "exactly one out of stock"
        );
        for demo in DEMO.iter().filter(|d| !d.related.is_empty()) {
            assert!(
                demo.related.iter().all(|id| ids.contains(id)),
                "{} has known components",
                demo.name
            );
        }
        for demo in &DEMO {
            let png = picture(demo).unwrap();
            let art = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
            assert_eq!(
                (art.width(), art.height()),
                (300, 300),
                "{}'s picture",
                demo.name
            );
            assert!(
                draft(demo, String::new()).is_ok(),
                "{} has valid prices",
                demo.name
            );
        }
    }
}
