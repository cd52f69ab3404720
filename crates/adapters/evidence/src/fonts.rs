//! The typeface of the evidence files: DejaVu Sans, regular and bold, committed next to the
//! crate (`fonts/`, licence in `fonts/LICENSE.txt`) and embedded in each file as a subset of
//! the glyphs used. It covers Latin, Greek, Cyrillic and more, so most names show as the buyer
//! typed them; a character it has no glyph for (CJK, emoji) is shown as `?` rather than as an
//! empty box, so the reader sees that something was there.

use std::collections::BTreeSet;

use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{subset, CmapTarget, SubsetProfile};
use disputes::EvidenceError;
use printpdf::ParsedFont;

const REGULAR_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
const BOLD_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// Shown in place of a character the font cannot draw.
const REPLACEMENT: char = '?';

/// The two faces, parsed once and shared by every file rendered.
pub(crate) struct Fonts {
    pub regular: Face,
    pub bold: Face,
}

impl Fonts {
    pub fn load() -> Result<Self, EvidenceError> {
        Ok(Fonts {
            regular: Face::parse(REGULAR_TTF, "DejaVu Sans")?,
            bold: Face::parse(BOLD_TTF, "DejaVu Sans Bold")?,
        })
    }
}

/// One parsed face, with what the layout needs of it: which characters it can draw and how
/// wide they are.
pub(crate) struct Face {
    pub parsed: ParsedFont,
    replacement_width: u16,
}

impl Face {
    fn parse(bytes: &[u8], name: &str) -> Result<Self, EvidenceError> {
        let mut warnings = Vec::new();
        let parsed = ParsedFont::from_bytes(bytes, 0, &mut warnings)
            .ok_or_else(|| EvidenceError(format!("the font {name} could not be read")))?;
        let replacement_width = parsed
            .lookup_glyph_index(u32::from(REPLACEMENT))
            .and_then(|glyph| parsed.get_glyph_width(glyph))
            .ok_or_else(|| EvidenceError(format!("the font {name} has no '?'")))?;
        Ok(Face {
            parsed,
            replacement_width,
        })
    }

    /// The text as this face can draw it: line breaks stay (`wrap` breaks lines at them), tabs
    /// become spaces, other control characters and invisible formatting characters are dropped,
    /// characters without a glyph or that need shaping become `?`.
    pub fn printable(&self, text: &str) -> String {
        text.chars()
            .filter_map(|c| match c {
                '\n' => Some('\n'),
                '\t' => Some(' '),
                c if c.is_control() || is_invisible(c) => None,
                c if needs_shaping(c) => Some(REPLACEMENT),
                c if self.parsed.lookup_glyph_index(u32::from(c)).is_some() => Some(c),
                _ => Some(REPLACEMENT),
            })
            .collect()
    }

    /// A copy of the face with only the glyphs of `chars` (and the missing-glyph glyph), to
    /// embed in a file: a few kilobytes instead of the whole face's 700.
    pub fn subset(&self, chars: &BTreeSet<char>) -> Result<ParsedFont, String> {
        let mut glyphs: Vec<u16> = chars
            .iter()
            .filter_map(|c| self.parsed.lookup_glyph_index(u32::from(*c)))
            .chain([0])
            .collect();
        // allsorts wants the missing glyph (0) first and no glyph twice.
        glyphs.sort_unstable();
        glyphs.dedup();
        let file = ReadScope::new(&self.parsed.original_bytes)
            .read::<FontData<'_>>()
            .map_err(|error| error.to_string())?;
        let provider = file.table_provider(0).map_err(|error| error.to_string())?;
        let bytes = subset(&provider, &glyphs, &SubsetProfile::Pdf, CmapTarget::Unicode)
            .map_err(|error| error.to_string())?;
        ParsedFont::from_bytes(&bytes, 0, &mut Vec::new())
            .ok_or_else(|| "the subset font cannot be read back".to_owned())
    }

    /// The width of printable text at `size` points, in points.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let units: u32 = text.chars().map(|c| u32::from(self.advance(c))).sum();
        units as f32 * size / f32::from(self.parsed.units_per_em.max(1))
    }

    fn advance(&self, c: char) -> u16 {
        self.parsed
            .lookup_glyph_index(u32::from(c))
            .and_then(|glyph| self.parsed.get_glyph_width(glyph))
            .unwrap_or(self.replacement_width)
    }

    /// The text made printable and broken into lines no wider than `max_width` points: at
    /// spaces where it can, inside a word (a link, an id) where the word alone is too wide.
    /// A line break in the text starts a new line; an empty line stays empty.
    pub fn wrap(&self, text: &str, size: f32, max_width: f32) -> Vec<String> {
        let printable = self.printable(&text.replace("\r\n", "\n"));
        let mut lines = Vec::new();
        for paragraph in printable.split('\n') {
            self.wrap_paragraph(paragraph, size, max_width, &mut lines);
        }
        lines
    }

    fn wrap_paragraph(&self, paragraph: &str, size: f32, max_width: f32, lines: &mut Vec<String>) {
        let space = self.width(" ", size);
        let mut line = String::new();
        let mut line_width = 0.0;
        for word in paragraph.split_whitespace() {
            let word_width = self.width(word, size);
            if !line.is_empty() && line_width + space + word_width <= max_width {
                line.push(' ');
                line.push_str(word);
                line_width += space + word_width;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let rest = self.break_long_word(word, size, max_width, lines);
            line_width = self.width(&rest, size);
            line = rest;
        }
        lines.push(line);
    }

    /// Pushes whole lines of a word wider than `max_width` and answers what is left of it.
    fn break_long_word(
        &self,
        word: &str,
        size: f32,
        max_width: f32,
        lines: &mut Vec<String>,
    ) -> String {
        let mut piece = String::new();
        let mut piece_width = 0.0;
        for c in word.chars() {
            let width =
                f32::from(self.advance(c)) * size / f32::from(self.parsed.units_per_em.max(1));
            if !piece.is_empty() && piece_width + width > max_width {
                lines.push(std::mem::take(&mut piece));
                piece_width = 0.0;
            }
            piece.push(c);
            piece_width += width;
        }
        piece
    }
}

/// Zero-width characters that only steer how the others are drawn: spaces and joiners
/// (U+200B to U+200F), direction marks and overrides, word joiners, variation selectors (the
/// emoji presentation U+FE0F) and the byte order mark.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}')
}

/// Whether the character belongs to a script drawn right to left or with contextual letter
/// forms: Hebrew, Arabic, Syriac, Thaana, N'Ko and the other right-to-left blocks up to
/// U+08FF, the Indic scripts (U+0900 to U+0DFF), and the Hebrew and Arabic presentation forms.
fn needs_shaping(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{0900}'..='\u{0DFF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regular() -> Face {
        match Fonts::load() {
            Ok(fonts) => fonts.regular,
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn characters_the_font_lacks_become_question_marks() {
        let face = regular();
        assert_eq!(
            face.printable("Zoë Жук 花子 🌱\tok\u{7}"),
            "Zoë Жук ?? ? ok"
        );
        assert_eq!(
            face.printable("\u{FEFF}ok \u{1F468}\u{200D}\u{1F469} \u{2764}\u{FE0F}"),
            "ok ?? ❤"
        );
    }

    #[test]
    fn right_to_left_and_joined_scripts_become_question_marks() {
        let face = regular();
        assert_eq!(
            face.printable("نور שלום नमस्ते Ἀλέξανδρος"),
            "??? ???? ?????? Ἀλέξανδρος"
        );
    }

    #[test]
    fn wrapped_lines_fit_the_width_and_keep_every_word() {
        let face = regular();
        let text = "The buyer pressed the button twice and then confirmed receipt of the items.";
        let lines = face.wrap(text, 10.0, 120.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|line| face.width(line, 10.0) <= 120.0));
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn a_word_wider_than_the_line_is_broken_inside() {
        let face = regular();
        let link = "https://www.roblox.com/share?code=0123456789abcdef0123456789abcdef&type=Server";
        let lines = face.wrap(link, 10.0, 100.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|line| face.width(line, 10.0) <= 100.0));
        assert_eq!(lines.concat(), link);
    }

    #[test]
    fn line_breaks_and_blank_lines_are_kept() {
        let face = regular();
        assert_eq!(
            face.wrap("one\r\n\ntwo", 10.0, 400.0),
            vec!["one", "", "two"]
        );
    }
}
