//! What the shop keeps of an outside system's answer when it fails: the status (the caller's)
//! and a bounded excerpt of the body ([`excerpt`]), never the whole body. An error page can be
//! megabytes, hold the request echoed back (a token, a buyer's details) or control characters
//! that forge log lines; the excerpt is one short line of text.

/// How many characters of an outside answer an [`excerpt`] keeps.
pub const EXCERPT_CHARS: usize = 200;

/// A single-line excerpt of an outside system's answer for logs and stored errors: at most
/// [`EXCERPT_CHARS`] characters, every control or invisible formatting character (line breaks,
/// escapes, bidi overrides, zero-width characters) made a space, runs of spaces made one, and
/// `…` when cut. Pass the body only: headers (cookies, authorisation) never go in.
pub fn excerpt(body: &str) -> String {
    let mut out = String::with_capacity(EXCERPT_CHARS.min(body.len()) + 3);
    let mut kept = 0;
    let mut space = false;
    for c in body.chars() {
        let c = if c.is_control() || is_format(c) || c.is_whitespace() {
            ' '
        } else {
            c
        };
        if c == ' ' {
            if space || kept == 0 {
                continue;
            }
            space = true;
        } else {
            space = false;
        }
        if kept == EXCERPT_CHARS {
            out.truncate(out.trim_end().len());
            out.push('…');
            return out;
        }
        out.push(c);
        kept += 1;
    }
    out.truncate(out.trim_end().len());
    out
}

/// Unicode's invisible formatting characters (category Cf) that matter in a log line: the bidi
/// controls, the zero-width ones, the soft hyphen and the byte order mark.
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_body_is_cut_to_one_short_line() {
        let body = format!(
            "<html>\n<title>502</title>\r\n{}</html>",
            "x".repeat(100_000)
        );
        let cut = excerpt(&body);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1, "{cut}");
        assert!(cut.ends_with('…'));
        assert!(cut.starts_with("<html> <title>502</title> xxx"), "{cut}");
        assert!(!cut.contains(['\n', '\r']));
    }

    #[test]
    fn control_and_format_characters_cannot_forge_a_line() {
        let cut = excerpt(
            "bad\n2026-11-28T00:00:00Z INFO forged\u{1b}[31m \u{202E}txt.exe\u{200B} \t end\u{0}",
        );
        assert_eq!(cut, "bad 2026-11-28T00:00:00Z INFO forged [31m txt.exe end");
    }

    #[test]
    fn a_short_answer_is_kept_as_it_is() {
        assert_eq!(
            excerpt("{\"message\": \"refused\"}"),
            "{\"message\": \"refused\"}"
        );
        assert_eq!(excerpt(""), "");
        assert_eq!(excerpt(" \n "), "");
        let exact = "é".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
    }
}
