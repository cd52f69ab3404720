//! A small page composer over printpdf: text flows down A4 pages from the top margin, a new
//! page starts when the next line or picture would cross the bottom margin, and every page
//! gets the file's running header and "Page N of M" at the end.

use std::collections::BTreeSet;

use printpdf::{
    Color, DateTime, FontId, ImageCompression, ImageOptimizationOptions, Line, LinePoint, Mm, Op,
    PdfDocument, PdfFont, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt, RawImage, Rgb,
    TextItem, XObjectId, XObjectTransform,
};

use crate::fonts::{Face, Fonts};

const PAGE_WIDTH_MM: f32 = 210.0;
const PAGE_HEIGHT_MM: f32 = 297.0;
const PAGE_WIDTH: f32 = PAGE_WIDTH_MM * 72.0 / 25.4;
const PAGE_HEIGHT: f32 = PAGE_HEIGHT_MM * 72.0 / 25.4;
const MARGIN: f32 = 56.0;
/// The width text and pictures may take, in points.
pub(crate) const CONTENT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN;
const BODY_SIZE: f32 = 10.0;
const SMALL_SIZE: f32 = 8.5;
const LINE_SPACING: f32 = 1.4;
/// The tallest a picture is drawn, so two fit on a page with their captions.
const MAX_PICTURE_HEIGHT: f32 = 300.0;

/// The quality of the proof pictures' JPEG. printpdf encodes the pictures itself when it saves;
/// the pictures module encodes them at the same quality beforehand to know their size.
pub(crate) const JPEG_QUALITY: u8 = 75;

const INK: (f32, f32, f32) = (0.1, 0.1, 0.1);
const GREY: (f32, f32, f32) = (0.4, 0.4, 0.4);
const RULE: (f32, f32, f32) = (0.75, 0.75, 0.75);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Regular,
    Bold,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// One cell of a table row: its text, how wide its column is (points) and how it is set.
pub(crate) struct Cell<'t> {
    pub text: &'t str,
    pub width: f32,
    pub style: Style,
    pub align: Align,
}

impl<'t> Cell<'t> {
    pub fn new(text: &'t str, width: f32) -> Self {
        Cell {
            text,
            width,
            style: Style::Regular,
            align: Align::Left,
        }
    }

    pub fn bold(self) -> Self {
        Cell {
            style: Style::Bold,
            ..self
        }
    }

    pub fn right(self) -> Self {
        Cell {
            align: Align::Right,
            ..self
        }
    }
}

/// A font of the document: the face to measure with, its id in the file, and the characters
/// drawn with it (the glyphs its embedded subset needs).
struct DocFont<'f> {
    face: &'f Face,
    id: FontId,
    used: BTreeSet<char>,
}

impl<'f> DocFont<'f> {
    fn new(doc: &mut PdfDocument, face: &'f Face) -> Self {
        DocFont {
            id: doc.add_font(&face.parsed),
            face,
            used: BTreeSet::new(),
        }
    }

    /// Swaps the whole face registered in `doc` for a subset of the characters used; keeps
    /// the whole face (a larger file, still right) if subsetting fails.
    fn embed_subset(&self, doc: &mut PdfDocument) {
        match self.face.subset(&self.used) {
            Ok(subset) => {
                doc.resources
                    .fonts
                    .map
                    .insert(self.id.clone(), PdfFont::new(subset));
            }
            Err(reason) => {
                tracing::warn!(%reason, "the font could not be subset; embedding it whole")
            }
        }
    }
}

/// One PDF file being composed.
pub(crate) struct Composer<'f> {
    doc: PdfDocument,
    regular: DocFont<'f>,
    bold: DocFont<'f>,
    /// The line at the top of every page ("Garden Shop · order #42 · delivery record").
    header: String,
    pages: Vec<Vec<Op>>,
    ops: Vec<Op>,
    /// Where the next line's top is, in points from the bottom of the page.
    y: f32,
}

impl<'f> Composer<'f> {
    /// A file titled `title` (also its metadata title), by `shop_name`, with `header` at the top
    /// of every page.
    pub fn new(fonts: &'f Fonts, shop_name: &str, title: &str, header: &str) -> Self {
        let mut doc = PdfDocument::new(title);
        let now = DateTime::now();
        let info = &mut doc.metadata.info;
        info.creation_date = now;
        info.modification_date = now;
        info.metadata_date = now;
        info.author = shop_name.to_owned();
        info.creator = shop_name.to_owned();
        let regular = DocFont::new(&mut doc, &fonts.regular);
        let bold = DocFont::new(&mut doc, &fonts.bold);
        Composer {
            doc,
            regular,
            bold,
            header: header.to_owned(),
            pages: Vec::new(),
            ops: Vec::new(),
            y: PAGE_HEIGHT - MARGIN,
        }
    }

    fn font(&self, style: Style) -> &DocFont<'f> {
        match style {
            Style::Regular => &self.regular,
            Style::Bold => &self.bold,
        }
    }

    /// The file's title, large and bold, at the top of the first page.
    pub fn title(&mut self, text: &str) {
        self.lines(text, Style::Bold, 17.0, INK);
        self.space(4.0);
    }

    /// A section heading with a thin rule under it; kept on a page with the lines after it.
    pub fn heading(&mut self, text: &str) {
        self.space(12.0);
        self.ensure(12.5 * LINE_SPACING + 4.0 * BODY_SIZE * LINE_SPACING);
        self.lines(text, Style::Bold, 12.5, INK);
        self.rule();
        self.space(5.0);
    }

    /// Body text, wrapped; its line breaks are kept and it flows over pages.
    pub fn paragraph(&mut self, text: &str) {
        self.lines(text, Style::Regular, BODY_SIZE, INK);
    }

    /// A bold line of body size (a message's subject).
    pub fn strong(&mut self, text: &str) {
        self.lines(text, Style::Bold, BODY_SIZE, INK);
    }

    /// Smaller grey text: captions, notes about what is left out.
    pub fn muted(&mut self, text: &str) {
        self.lines(text, Style::Regular, SMALL_SIZE + 0.5, GREY);
    }

    pub fn space(&mut self, points: f32) {
        self.y -= points;
    }

    /// A label and its value side by side, the value wrapped in its column.
    pub fn field(&mut self, label: &str, value: &str) {
        let label_width = 150.0;
        self.row(&[
            Cell::new(label, label_width).bold(),
            Cell::new(value, CONTENT_WIDTH - label_width),
        ]);
    }

    /// A table row: each cell wrapped in its column, the row as tall as its tallest cell,
    /// broken line by line over pages.
    pub fn row(&mut self, cells: &[Cell<'_>]) {
        let gutter = 8.0;
        let wrapped: Vec<Vec<String>> = cells
            .iter()
            .map(|cell| {
                self.font(cell.style)
                    .face
                    .wrap(cell.text, BODY_SIZE, cell.width - gutter)
            })
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(0);
        for index in 0..height {
            self.ensure(BODY_SIZE * LINE_SPACING);
            let mut x = MARGIN;
            for (cell, lines) in cells.iter().zip(&wrapped) {
                if let Some(line) = lines.get(index) {
                    let offset = match cell.align {
                        Align::Left => 0.0,
                        // flush with the column's right edge: the gutter is on its left
                        Align::Right => {
                            cell.width - self.font(cell.style).face.width(line, BODY_SIZE)
                        }
                    };
                    self.text_at(
                        line,
                        cell.style,
                        BODY_SIZE,
                        INK,
                        x + offset,
                        self.y - BODY_SIZE,
                    );
                }
                x += cell.width;
            }
            self.y -= BODY_SIZE * LINE_SPACING;
        }
        self.space(2.0);
    }

    /// A thin horizontal rule across the content width.
    pub fn rule(&mut self) {
        self.y -= 3.0;
        let y = self.y;
        self.ops.push(Op::SetOutlineColor { col: color(RULE) });
        self.ops.push(Op::SetOutlineThickness { pt: Pt(0.6) });
        self.ops.push(Op::DrawLine {
            line: horizontal_line(MARGIN, PAGE_WIDTH - MARGIN, y),
        });
        self.y -= 1.0;
    }

    /// Adds a picture to the file (printpdf encodes it as JPEG when it saves).
    pub fn add_picture(&mut self, image: &RawImage) -> XObjectId {
        self.doc.add_image(image)
    }

    /// Draws a picture added with `add_picture` under its caption, as large as fits the
    /// content width and `MAX_PICTURE_HEIGHT`, never above one point per pixel; the two start a
    /// new page together when they do not fit.
    pub fn picture(&mut self, caption: &str, id: XObjectId, width_px: usize, height_px: usize) {
        let (width_px, height_px) = (width_px.max(1) as f32, height_px.max(1) as f32);
        let scale = (CONTENT_WIDTH / width_px)
            .min(MAX_PICTURE_HEIGHT / height_px)
            .min(1.0);
        let (width, height) = (width_px * scale, height_px * scale);
        self.ensure(height + 2.0 * SMALL_SIZE * LINE_SPACING);
        self.muted(caption);
        self.space(2.0);
        self.ops.push(Op::UseXobject {
            id,
            transform: XObjectTransform {
                translate_x: Some(Pt(MARGIN)),
                translate_y: Some(Pt(self.y - height)),
                dpi: Some(width_px * 72.0 / width),
                ..XObjectTransform::default()
            },
        });
        self.y -= height;
    }

    /// Starts a new page unless `height` points still fit above the bottom margin.
    pub fn ensure(&mut self, height: f32) {
        if self.y - height < MARGIN && self.y < PAGE_HEIGHT - MARGIN {
            self.pages.push(std::mem::take(&mut self.ops));
            self.y = PAGE_HEIGHT - MARGIN;
        }
    }

    fn lines(&mut self, text: &str, style: Style, size: f32, ink: (f32, f32, f32)) {
        for line in self.font(style).face.wrap(text, size, CONTENT_WIDTH) {
            self.ensure(size * LINE_SPACING);
            if !line.is_empty() {
                self.text_at(&line, style, size, ink, MARGIN, self.y - size);
            }
            self.y -= size * LINE_SPACING;
        }
    }

    /// Draws one line of printable text with its baseline at (`x`, `baseline`).
    fn text_at(
        &mut self,
        line: &str,
        style: Style,
        size: f32,
        ink: (f32, f32, f32),
        x: f32,
        baseline: f32,
    ) {
        let font = match style {
            Style::Regular => &mut self.regular,
            Style::Bold => &mut self.bold,
        };
        font.used.extend(line.chars());
        let font = PdfFontHandle::External(font.id.clone());
        self.ops.extend([
            Op::StartTextSection,
            Op::SetFillColor { col: color(ink) },
            Op::SetFont {
                font,
                size: Pt(size),
            },
            Op::SetTextCursor {
                pos: Point {
                    x: Pt(x),
                    y: Pt(baseline),
                },
            },
            Op::ShowText {
                items: vec![TextItem::Text(line.to_owned())],
            },
            Op::EndTextSection,
        ]);
    }

    /// The file's bytes: every page with its header and page number.
    pub fn finish(mut self) -> Vec<u8> {
        self.pages.push(std::mem::take(&mut self.ops));
        let count = self.pages.len();
        let pages: Vec<Vec<Op>> = std::mem::take(&mut self.pages);
        let pages = pages
            .into_iter()
            .enumerate()
            .map(|(index, ops)| self.decorate(ops, index + 1, count))
            .collect();
        self.regular.embed_subset(&mut self.doc);
        self.bold.embed_subset(&mut self.doc);
        let mut warnings = Vec::new();
        let bytes = self
            .doc
            .with_pages(pages)
            .save(&save_options(), &mut warnings);
        for warning in warnings {
            tracing::debug!(message = %warning.msg, "printpdf warning");
        }
        bytes
    }

    fn decorate(&mut self, ops: Vec<Op>, number: usize, count: usize) -> PdfPage {
        let saved = std::mem::replace(&mut self.ops, ops);
        let header = self.regular.face.printable(&self.header);
        let top = PAGE_HEIGHT - MARGIN / 2.0 - SMALL_SIZE;
        self.text_at(&header, Style::Regular, SMALL_SIZE, GREY, MARGIN, top);
        let footer = format!("Page {number} of {count}");
        let x = (PAGE_WIDTH - self.regular.face.width(&footer, SMALL_SIZE)) / 2.0;
        self.text_at(&footer, Style::Regular, SMALL_SIZE, GREY, x, MARGIN / 2.0);
        let ops = std::mem::replace(&mut self.ops, saved);
        PdfPage::new(Mm(PAGE_WIDTH_MM), Mm(PAGE_HEIGHT_MM), ops)
    }
}

/// Streams compressed, fonts subset, pictures as JPEG at `JPEG_QUALITY` with nothing else
/// changed (no greyscale guess, no resize), so their size is the one measured beforehand.
fn save_options() -> PdfSaveOptions {
    PdfSaveOptions {
        image_optimization: Some(ImageOptimizationOptions {
            // printpdf turns this back into a whole number by truncating `quality * 100`;
            // the half keeps float rounding from landing one below.
            quality: Some((f32::from(JPEG_QUALITY) + 0.5) / 100.0),
            max_image_size: None,
            dither_greyscale: Some(false),
            convert_to_greyscale: Some(false),
            auto_optimize: Some(false),
            format: Some(ImageCompression::Jpeg),
        }),
        ..PdfSaveOptions::default()
    }
}

fn color((r, g, b): (f32, f32, f32)) -> Color {
    Color::Rgb(Rgb::new(r, g, b, None))
}

fn horizontal_line(from: f32, to: f32, y: f32) -> Line {
    let point = |x: f32| LinePoint {
        p: Point { x: Pt(x), y: Pt(y) },
        bezier: false,
    };
    Line {
        points: vec![point(from), point(to)],
        is_closed: false,
    }
}
