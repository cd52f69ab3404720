//! The offline stand-in for Roblox: every well-formed username exists, with a drawn avatar.
use orders::gateways::{RobloxDirectory, RobloxLookupError, RobloxProfile, RobloxUsername};

/// Where the app serves the drawn avatars: `{DEV_AVATAR_PREFIX}/{username}.svg`.
pub const DEV_AVATAR_PREFIX: &str = "/api/roblox/dev-avatar";

/// The URL path of a username's drawn avatar.
pub fn dev_avatar_path(username: &RobloxUsername) -> String {
    format!("{DEV_AVATAR_PREFIX}/{username}.svg")
}

/// FNV-1a: a small, stable hash so a name always gets the same id and colours.
fn fingerprint(username: &RobloxUsername) -> u64 {
    username
        .as_str()
        .to_ascii_lowercase()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// Accepts any well-formed username; no network.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalRoblox;

impl RobloxDirectory for LocalRoblox {
    async fn lookup(
        &self,
        username: RobloxUsername,
    ) -> Result<Option<RobloxProfile>, RobloxLookupError> {
        Ok(Some(RobloxProfile {
            user_id: 1_000_000 + fingerprint(&username) % 9_000_000_000,
            avatar_url: Some(dev_avatar_path(&username)),
            username,
        }))
    }
}

fn hsl(hue: u64, saturation: u8, lightness: u8) -> String {
    format!("hsl({} {saturation}% {lightness}%)", hue % 360)
}

/// A 150x150 SVG headshot for a username: a blocky head on a coloured tile with the name's
/// first letter on the shirt. The same name always gives the same picture.
pub fn dev_avatar_svg(username: &RobloxUsername) -> String {
    let print = fingerprint(username);
    let background = hsl(print, 55, 78);
    let shirt = hsl(print >> 9, 60, 42);
    let skin = [
        "#f5cba7", "#e0ac69", "#c68642", "#8d5524", "#ffdbac", "#f1c27d",
    ][usize::try_from((print >> 18) % 6).unwrap_or(0)];
    let smile = if (print >> 24) & 1 == 0 {
        "M60 72 Q75 84 90 72"
    } else {
        "M62 74 L88 74"
    };
    // Usernames are ASCII letters, digits and '_', so the letter needs no escaping.
    let letter = username
        .as_str()
        .chars()
        .next()
        .map(|c| c.to_ascii_uppercase())
        .unwrap_or('?');
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="150" height="150" viewBox="0 0 150 150" role="img" aria-label="Avatar of {username}">
<rect width="150" height="150" fill="{background}"/>
<rect x="30" y="104" width="90" height="46" rx="8" fill="{shirt}"/>
<rect x="40" y="26" width="70" height="70" rx="12" fill="{skin}"/>
<rect x="56" y="48" width="9" height="12" rx="2" fill="#1f2933"/>
<rect x="85" y="48" width="9" height="12" rx="2" fill="#1f2933"/>
<path d="{smile}" stroke="#1f2933" stroke-width="4" fill="none" stroke-linecap="round"/>
<text x="75" y="138" font-family="system-ui, sans-serif" font-size="24" font-weight="700" fill="#ffffff" text-anchor="middle">{letter}</text>
</svg>"##
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn name(text: &str) -> RobloxUsername {
        RobloxUsername::parse(text).unwrap()
    }

    #[tokio::test]
    async fn any_well_formed_name_exists_with_a_stable_id_and_a_drawn_avatar() {
        let profile = LocalRoblox
            .lookup(name("Builder_Man"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(profile.username.as_str(), "Builder_Man");
        assert_eq!(
            profile.avatar_url.as_deref(),
            Some("/api/roblox/dev-avatar/Builder_Man.svg")
        );
        let again = LocalRoblox
            .lookup(name("builder_man"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(profile.user_id, again.user_id);
        let other = LocalRoblox.lookup(name("Someone")).await.unwrap().unwrap();
        assert_ne!(profile.user_id, other.user_id);
    }

    #[test]
    fn the_drawn_avatar_is_an_svg_that_depends_on_the_name() {
        let a = dev_avatar_svg(&name("Alice"));
        assert!(a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(a.trim_end().ends_with("</svg>"));
        assert!(a.contains(">A</text>"));
        assert!(a.contains("aria-label=\"Avatar of Alice\""));
        assert_eq!(a, dev_avatar_svg(&name("Alice")));
        assert_ne!(a, dev_avatar_svg(&name("Bob")));
    }
}
